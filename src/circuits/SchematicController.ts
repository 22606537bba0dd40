// HTTP interface of a circuit's drawing (/api/v1/circuits/{id}/schematic), read by the dashboard:
// components with their domain and .ipes grid position, wires as polylines (SchematicPresenter.ts).
import { Controller, Example, Get, Path, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { CircuitService } from './CircuitService.js';
import type { ErrorBody } from '../http/error-body.js';
import { presentSchematic, type Schematic } from './SchematicPresenter.js';

/** What the schematic endpoint needs of the service. */
export interface SchematicDeps {
  circuits: Pick<CircuitService, 'get'>;
}

@Route('api/v1/circuits')
@Tags('circuits')
@Security('api_key')
@Response<ErrorBody>(401, 'API key missing or invalid (when sim.api.auth-enabled)', { error: 'UNAUTHORIZED', message: 'This endpoint needs an API key in the X-API-Key header', path: '/api/v1/circuits/42/schematic', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(404, 'Unknown circuit', { error: 'CIRCUIT_NOT_FOUND', message: 'No circuit 42', path: '/api/v1/circuits/42/schematic', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(500, 'Internal error')
export class SchematicController extends Controller {
  constructor(private readonly services: SchematicDeps) {
    super();
  }

  /**
   * The circuit's drawing: every component with its domain (power, control, thermal) and, for
   * GeckoCIRCUITS files, its grid position and orientation; the wires as polylines of grid points.
   */
  @Get('{circuitId}/schematic')
  @Example<Schematic>({
    circuitId: '6f1c2a9e-3b0d-4a51-9c1e-2f4b8d7a0c13',
    hasGeometry: true,
    components: [{ name: 'R.1', type: 'R', kind: 'element', domain: 'power', connections: ['out', '0'], position: { x: 17, y: 6, orientation: 503 } }],
    wires: [{ domain: 'power', label: 'out', points: [[17, 4], [20, 4]] }],
  })
  public schematic(@Path() circuitId: string): Schematic {
    return presentSchematic(this.services.circuits.get(circuitId));
  }
}
