// Result keeping: where each task's result file lives, writing it when an executor returned the
// arrays (executors sharing our disk write it themselves on their threads), entering it in the
// result cache, and removing the file of a run whose result does not count (cancelled, timed out).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultCache } from './cache/result-cache.js';
import { fileExtension, readResult, writeResult } from './cache/formats/index.js';
import type { ExecutionOutcome, ResultTarget, RunSummary } from './executors/types.js';
import { runSummary } from './executors/summary.js';
import { isStorageFull, type StorageHealth } from './storage.js';
import type { CacheEntryRecord, Compression, StorageFormat, StoredResult, TaskRecord } from './types.js';

export interface ResultSettings {
  resultsDir: string;
  resultFormat: StorageFormat;
  resultCompression: Compression;
  /** Flush each result file to the device before its task completes (durability `full`). */
  syncResults: boolean;
}

export class ResultKeeper {
  /** File name extension of the result files. */
  private readonly extension: string;

  constructor(
    private readonly settings: ResultSettings,
    private readonly cache: ResultCache | undefined,
    private readonly storage: StorageHealth,
  ) {
    this.extension = fileExtension(settings.resultFormat, settings.resultCompression);
  }

  path(id: string): string {
    return join(this.settings.resultsDir, `${id}${this.extension}`);
  }

  /** Where an executor writes the task's result file. */
  target(id: string): ResultTarget {
    return { path: this.path(id), format: this.settings.resultFormat, compression: this.settings.resultCompression, sync: this.settings.syncResults };
  }

  read(id: string): Promise<StoredResult> {
    return readResult(this.path(id), this.settings.resultFormat);
  }

  remove(id: string): void {
    rmSync(this.path(id), { force: true });
  }

  /** The result file of a cache hit, copied out of the cache before its task says completed. */
  copyFromCache(entry: CacheEntryRecord, id: string): Promise<void> {
    return this.cache!.copyOut(entry, this.path(id), this.settings.resultFormat, this.settings.resultCompression);
  }

  /**
   * Writes the result file when the executor returned arrays and enters it in the cache; returns
   * the run's statistics and the summary kept with the task.
   */
  async keep(task: TaskRecord, outcome: Extract<ExecutionOutcome, { ok: true }>): Promise<RunSummary> {
    if ('result' in outcome) await this.write(task.id, outcome.result); // executors without our disk
    const summary: RunSummary = 'result' in outcome ? runSummary(outcome.result) : outcome.written;
    if (this.cache && task.cacheKey) {
      const target = this.target(task.id);
      const description = { modelFile: task.spec.netlist.name ?? task.id, parameters: task.spec.parameters, runMs: summary.stats.wallMs };
      try {
        await this.cache.putFile(task.cacheKey, target.path, target.format, target.compression, description);
      } catch (error) {
        // A cache entry is optional: without space for it the result is kept, uncached.
        if (!isStorageFull(this.storage.failed(error))) throw error;
      }
    }
    return summary;
  }

  private async write(id: string, result: StoredResult): Promise<void> {
    const path = this.path(id);
    try {
      await writeResult(path, result, this.settings.resultFormat, this.settings.resultCompression, { sync: this.settings.syncResults });
    } catch (error) {
      this.remove(id);
      throw error;
    }
  }
}
