// The engine's public surface.
export { simulate, simulateSync, validateNetlist, checkParameterNames, checkJsonParameterNames, prepareNetlist, engineInfo } from './simulate.js';
export type { SimulationResult, SimulateOptions, SimulateSyncOptions, ChannelInfo } from './simulate.js';
export { simulateMany, writeSweepTable } from './simulate-many.js';
export type { SweepResults, SweepRow, SimulateManyOptions } from './simulate-many.js';
export type { ResultsTableFormat } from './results-table.js';
export { steadyState, steadyStateSync } from './steady.js';
export { StepSession } from './step-session.js';
export type { SteadyStateOptions } from './steady.js';
export { RunController } from './controller.js';
export type { Progress, RunPhase, ControlBuffers } from './controller.js';
export {
  EngineError, CircuitError, SingularMatrixError, SwitchIterationError, CancelledError, CodeFailedError, isDeterministicFailure, toEngineError,
} from './errors.js';
export type { EngineErrorCode } from './errors.js';
export type { DeviceLossSummary, ReceiverSpectrum, RunStats, SteadyOptions, SteadyReport } from './types.js';
export * as analysis from './analysis.js';
export {
  MEASUREMENT_STATISTICS, measurementName, channelMeasurementName, engineMeasurementKey, namedMeasurements, measurement,
} from './measurement-names.js';
export type { MeasurementStatistic } from './measurement-names.js';
