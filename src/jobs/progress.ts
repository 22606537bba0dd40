// Task progress from the engine's shared progress buffer, with a remaining-time estimate from the
// rate observed so far.
import type { Progress } from '../engine/controller.js';
import type { TaskProgress } from './types.js';

export function progressOf(p: Progress, elapsedMs: number): TaskProgress {
  const fraction = p.phase === 'done' ? 1 : p.totalSteps > 0 ? p.step / p.totalSteps : 0;
  const estimatedRemainingMs = p.phase === 'main' && fraction > 0 && fraction < 1 ? (elapsedMs * (1 - fraction)) / fraction : p.phase === 'done' ? 0 : null;
  return { phase: p.phase, step: p.step, totalSteps: p.totalSteps, time: p.time, percent: p.percent, estimatedRemainingMs };
}
