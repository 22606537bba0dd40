// HTTP interface of circuit files (/api/v1/circuits): upload and parse, list, info, components,
// validate, delete, clone with overrides, and change of the simulation settings. Thin: the
// service does the work, the presenter shapes the bodies.
import { readFile, rm } from 'node:fs/promises';
import { Body, Controller, Delete, Example, Get, Path, Post, Put, Query, Response, Route, Security, SuccessResponse, Tags, UploadedFile, UploadedFiles } from '@tsoa/runtime';
import type { ErrorBody } from '../http/error-body.js';
import { validationError } from '../http/errors.js';
import { paging } from '../http/paging.js';
import type { CircuitService } from './CircuitService.js';
import { UploadedDataFiles } from './data-files.js';
import {
  presentCircuit, presentComponents, type Circuit, type CircuitList, type ComponentList, type SolverType, type ValidationResult,
} from './CircuitPresenter.js';

/** A multipart part as koa-body (formidable) stores it. */
interface UploadedPart {
  filepath: string;
  originalFilename?: string | null;
}

export interface CloneRequest {
  /** Parameter overrides: `<component>.<parameter>` (`R.1.R`) or `$<global>`. */
  overrides?: Record<string, number>;
  /** Name of the copy (default: "<name> (copy)"). */
  name?: string;
}

export interface CircuitParametersUpdate {
  /** Simulated time [s]. */
  simulationDuration?: number;
  /** Integration time step [s]. */
  timeStep?: number;
  solverType?: SolverType;
}

const EXAMPLE: Circuit = {
  circuitId: '6f1c2a9e-3b0d-4a51-9c1e-2f4b8d7a0c13',
  name: 'buck',
  format: 'ipes',
  componentCount: 11,
  nodeCount: 3,
  parameters: { simulationDuration: 0.02, timeStep: 1e-7, solverType: 'backward-euler' },
  globalParameters: { Vin: 48 },
  warnings: [],
  createdAt: '2025-01-01T12:00:00.000Z',
};

/** What the circuit endpoints need of the service. */
export interface CircuitDeps {
  circuits: CircuitService;
}

@Route('api/v1/circuits')
@Tags('circuits')
@Security('api_key')
@Response<ErrorBody>(400, 'Invalid request', { error: 'VALIDATION_ERROR', message: 'Invalid request: overrides.R.9.R no such component', details: [{ field: 'overrides.R.9.R', message: 'no such component' }], path: '/api/v1/circuits/6f1c2a9e-3b0d-4a51-9c1e-2f4b8d7a0c13/clone', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(401, 'API key missing or invalid (when sim.api.auth-enabled)', { error: 'UNAUTHORIZED', message: 'This endpoint needs an API key in the X-API-Key header', path: '/api/v1/circuits', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(404, 'Unknown circuit', { error: 'CIRCUIT_NOT_FOUND', message: 'No circuit 42', path: '/api/v1/circuits/42/info', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(415, 'A request body that is not application/json (multipart/form-data for uploads)', { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body has the Content-Type text/plain, which this service does not read: send application/json (multipart/form-data for file uploads)', details: [{ field: 'Content-Type', message: 'must be application/json (multipart/form-data for file uploads)' }], path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(500, 'Internal error')
@Response<ErrorBody>(507, 'The data directory is full: nothing new is stored until space is freed (reads go on; /actuator/health shows the store DEGRADED)', { error: 'STORAGE_FULL', message: 'The data directory /var/lib/pesim is full: nothing new can be stored until space is freed there (database or disk is full); stored simulations and results can still be read', path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
export class CircuitController extends Controller {
  constructor(private readonly services: CircuitDeps) {
    super();
  }

  /**
   * Uploads a circuit file (GeckoCIRCUITS .ipes, SPICE deck or pesim JSON netlist; the format is
   * detected from the content), checks that it can be simulated and stores it. Data files the
   * circuit names (an imported signal's table or a loss file beside an .ipes model, a file a SPICE
   * deck includes) go with it as parts `files`, one per file, under their file names; a refusal
   * for a data file that was not sent names it.
   * @param file the circuit file (multipart part `file`)
   * @param files the data files the circuit names (multipart parts `files`, any number)
   */
  @Post('parse')
  @SuccessResponse(201, 'Stored')
  @Response<ErrorBody>(413, 'Body larger than sim.api.max-body-size')
  @Response<ErrorBody>(422, 'The circuit cannot be read or simulated', { error: 'CIRCUIT_INVALID', message: 'buck.cir:12: unknown element type Q', details: [{ field: 'line 12', message: 'unknown element type Q', line: 12 }], path: '/api/v1/circuits/parse', timestamp: '2025-01-01T12:00:00.000Z' })
  @Example<Circuit>(EXAMPLE)
  public async parse(@UploadedFile('file') file: unknown, @UploadedFiles('files') files?: unknown): Promise<Circuit> {
    const part = (Array.isArray(file) ? file[0] : file) as UploadedPart | undefined;
    const dataParts = (files === undefined ? [] : Array.isArray(files) ? files : [files]) as UploadedPart[];
    try {
      if (!part?.filepath) throw validationError('Send the circuit file as the multipart part "file"', [{ field: 'file', message: 'is required' }]);
      const bytes = await readFile(part.filepath);
      if (bytes.length === 0) throw validationError('The uploaded circuit file is empty', [{ field: 'file', message: 'is empty; expected a GeckoCIRCUITS .ipes file, a SPICE deck or a pesim JSON netlist' }]);
      const data = new Map<string, Uint8Array>();
      for (const [k, p] of dataParts.entries()) {
        if (!p.originalFilename) throw validationError('Every data file needs its file name', [{ field: `files[${k}]`, message: 'has no file name (the filename of its Content-Disposition)' }]);
        data.set(p.originalFilename, await readFile(p.filepath));
      }
      const record = await this.services.circuits.parse(bytes, part.originalFilename ?? undefined, new UploadedDataFiles(data));
      this.setStatus(201);
      this.setHeader('Location', `/api/v1/circuits/${record.id}/info`);
      return presentCircuit(record);
    } finally {
      await Promise.all([part, ...dataParts].filter((p) => p?.filepath).map((p) => rm(p!.filepath, { force: true })));
    }
  }

  /**
   * Loaded circuits, newest first.
   * @param limit page size (1–1000, default 100)
   * @param offset circuits to skip
   */
  @Get()
  @Example<CircuitList>({ circuits: [{ circuitId: '6f1c2a9e-3b0d-4a51-9c1e-2f4b8d7a0c13', name: 'buck', format: 'ipes', componentCount: 11, nodeCount: 3, parameters: { simulationDuration: 0.02, timeStep: 1e-7, solverType: 'backward-euler' }, globalParameters: { Vin: 48 }, warnings: [], createdAt: '2025-01-01T12:00:00.000Z' }], total: 1 })
  public list(@Query() limit?: number, @Query() offset?: number): CircuitList {
    const page = paging(limit, offset);
    const { circuits, total } = this.services.circuits.list(page.limit, page.offset);
    return { circuits: circuits.map(presentCircuit), total };
  }

  /** The circuit's metadata and simulation settings. */
  @Get('{circuitId}/info')
  @Example<Circuit>(EXAMPLE)
  public info(@Path() circuitId: string): Circuit {
    return presentCircuit(this.services.circuits.get(circuitId));
  }

  /** Elements and control blocks with their parameters (the names parameter keys start with). */
  @Get('{circuitId}/components')
  @Example<ComponentList>({ circuitId: '6f1c2a9e-3b0d-4a51-9c1e-2f4b8d7a0c13', components: [{ name: 'R.1', type: 'R', kind: 'element', nodes: ['out', '0'], parameters: { R: 5 } }] })
  public components(@Path() circuitId: string): ComponentList {
    return presentComponents(this.services.circuits.get(circuitId));
  }

  /** Checks the circuit with the engine (topology, parameters) without simulating it. */
  @Post('{circuitId}/validate')
  @Example<ValidationResult>({ circuitId: '6f1c2a9e-3b0d-4a51-9c1e-2f4b8d7a0c13', valid: false, errors: [{ code: 'FLOATING_NODE', message: 'node x has no DC path to ground', component: 'C.2' }], warnings: [] })
  public validate(@Path() circuitId: string): ValidationResult {
    return this.services.circuits.validate(circuitId);
  }

  /** Removes the circuit (simulations already submitted keep their copy). */
  @Delete('{circuitId}')
  @SuccessResponse(204, 'Deleted')
  public delete(@Path() circuitId: string): void {
    this.services.circuits.delete(circuitId);
    this.setStatus(204);
  }

  /** Stores a copy with parameter overrides applied. */
  @Post('{circuitId}/clone')
  @SuccessResponse(201, 'Copy stored')
  @Response<ErrorBody>(413, 'Body larger than sim.api.max-body-size')
  @Response<ErrorBody>(422, 'The overridden circuit cannot be simulated')
  @Example<Circuit>({ circuitId: '0b7d4c1e-8f2a-4e6b-9d3c-5a1f0e2b7c49', name: 'buck (copy)', format: 'ipes', componentCount: 11, nodeCount: 3, parameters: { simulationDuration: 0.02, timeStep: 1e-7, solverType: 'backward-euler' }, globalParameters: { Vin: 48 }, warnings: [], createdAt: '2025-01-01T12:00:00.000Z' })
  public clone(@Path() circuitId: string, @Body() body: CloneRequest = {}): Circuit {
    const record = this.services.circuits.clone(circuitId, body.overrides ?? {}, body.name);
    this.setStatus(201);
    this.setHeader('Location', `/api/v1/circuits/${record.id}/info`);
    return presentCircuit(record);
  }

  /**
   * Changes the simulated time, time step or solver of the stored circuit. Settings giving more
   * steps (simulationDuration / timeStep) than sim.api.max-steps are refused, as every submission
   * would refuse them.
   */
  @Put('{circuitId}/parameters')
  @Response<ErrorBody>(413, 'Body larger than sim.api.max-body-size')
  @Response<ErrorBody>(422, 'More steps than sim.api.max-steps', { error: 'SIMULATION_TOO_LARGE', message: '1.000e+10 steps (simulationDuration / timeStep) exceed the limit of 50000000 (sim.api.max-steps); use a longer time step or a shorter simulation', details: [{ field: 'timeStep', message: 'gives 10000000000 steps, more than 50000000' }], path: '/api/v1/circuits/6f1c2a9e-3b0d-4a51-9c1e-2f4b8d7a0c13/parameters', timestamp: '2025-01-01T12:00:00.000Z' })
  @Example<Circuit>({ circuitId: '6f1c2a9e-3b0d-4a51-9c1e-2f4b8d7a0c13', name: 'buck', format: 'ipes', componentCount: 11, nodeCount: 3, parameters: { simulationDuration: 0.01, timeStep: 5e-8, solverType: 'trapezoidal' }, globalParameters: { Vin: 48 }, warnings: [], createdAt: '2025-01-01T12:00:00.000Z' })
  public updateParameters(@Path() circuitId: string, @Body() body: CircuitParametersUpdate): Circuit {
    return presentCircuit(this.services.circuits.updateSettings(circuitId, body));
  }
}
