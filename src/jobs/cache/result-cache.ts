// The result cache: entries are result files in the cache directory, indexed in SQLite. A hit
// completes a task at once; expired entries are removed on lookup and by sweep(); a file that is
// missing or not of its recorded size is treated as a miss, removed, and logged. Files move between
// task results and the cache by hard link when their format and compression agree (no re-encoding);
// a file damaged in place without changing its size is found when it is read (CORRUPT_RESULT).
import { copyFileSync, linkSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../../store/types.js';
import type { CacheEntryRecord, Compression, StorageFormat, StoredResult, TaskSpec } from '../types.js';
import { checkCombination, fileExtension, readResult, writeResult } from './formats/index.js';
import { cacheKey, type CacheKeyOptions, type NetlistMemo } from './key.js';

export interface CacheSettings {
  enabled: boolean;
  dir: string;
  format: StorageFormat;
  compression: Compression;
  /** 0: entries never expire. */
  ttlSeconds: number;
  includeFiles: boolean;
  includeParameters: boolean;
  excludeFields: string[];
}

export interface EntryDescription {
  modelFile: string;
  parameters: Record<string, number>;
  runMs: number;
}

/** Hard link (same file system), else a copy; result files are never modified in place. */
function linkOrCopy(source: string, target: string): void {
  try {
    linkSync(source, target);
  } catch {
    copyFileSync(source, target);
  }
}

export interface CacheStats {
  enabled: boolean;
  hits: number;
  misses: number;
  hitRate: number;
  entries: number;
  format: StorageFormat;
  compression: Compression;
  diskBytes: number;
  oldest: string | null;
  newest: string | null;
}

const HITS = 'cache.hits';
const MISSES = 'cache.misses';

export class ResultCache {
  constructor(
    private readonly store: Store,
    readonly settings: CacheSettings,
    private readonly engineVersion: string,
    private readonly now: () => number = Date.now,
  ) {
    // Refuse an unsupported format/compression pair at start-up, not at the first write.
    checkCombination(settings.format, settings.compression);
    mkdirSync(settings.dir, { recursive: true });
  }

  /** `memo`: netlist parts shared by the keys of one submission (cacheKey). */
  keyFor(spec: TaskSpec, memo?: NetlistMemo): string {
    const options: CacheKeyOptions = { ...this.settings, engineVersion: this.engineVersion };
    return cacheKey(spec, options, memo);
  }

  /** The entry of a usable cached result, or undefined (counted as a miss). */
  lookup(key: string): CacheEntryRecord | undefined {
    if (!this.settings.enabled) return undefined;
    const entry = this.store.cacheIndex.get(key);
    if (!entry || (entry.expiresAt !== null && Date.parse(entry.expiresAt) <= this.now())) {
      if (entry) this.remove(entry);
      this.store.counters.add(MISSES, 1);
      return undefined;
    }
    const problem = this.fileProblem(entry);
    if (problem) {
      this.store.logs.append({
        timestamp: new Date(this.now()).toISOString(),
        level: 'WARNING',
        message: `cache entry ${key} could not be used and was removed: ${problem}`,
      });
      this.remove(entry);
      this.store.counters.add(MISSES, 1);
      return undefined;
    }
    this.store.cacheIndex.touch(key, new Date(this.now()).toISOString());
    this.store.counters.add(HITS, 1);
    return this.store.cacheIndex.get(key) ?? entry;
  }

  /** Places a copy of the entry's result at `target` in the given format (a hard link when it matches). */
  async copyOut(entry: CacheEntryRecord, target: string, format: StorageFormat, compression: Compression): Promise<void> {
    const source = join(this.settings.dir, entry.file);
    if (entry.format === format && entry.compression === compression) return linkOrCopy(source, target);
    await writeResult(target, await readResult(source, entry.format), format, compression);
  }

  /** Stores an in-memory result. */
  async put(key: string, result: StoredResult, description: EntryDescription): Promise<void> {
    if (!this.settings.enabled) return;
    const file = this.fileName(key);
    const sizeBytes = await writeResult(join(this.settings.dir, file), result, this.settings.format, this.settings.compression);
    this.index(key, file, sizeBytes, description);
  }

  /** Stores a result already written to `source` (a task's result file). */
  async putFile(key: string, source: string, format: StorageFormat, compression: Compression, description: EntryDescription): Promise<void> {
    if (!this.settings.enabled) return;
    const file = this.fileName(key);
    const target = join(this.settings.dir, file);
    if (format === this.settings.format && compression === this.settings.compression) {
      rmSync(target, { force: true });
      linkOrCopy(source, target);
      this.index(key, file, statSync(target).size, description);
    } else {
      await this.put(key, await readResult(source, format), description);
    }
  }

  private fileName(key: string): string {
    return `${key}${fileExtension(this.settings.format, this.settings.compression)}`;
  }

  private fileProblem(entry: CacheEntryRecord): string | undefined {
    try {
      const size = statSync(join(this.settings.dir, entry.file)).size;
      return size === entry.sizeBytes ? undefined : `its file has ${size} bytes, ${entry.sizeBytes} were written`;
    } catch (error) {
      return `its file cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    }
  }

  private index(key: string, file: string, sizeBytes: number, description: EntryDescription): void {
    const created = new Date(this.now()).toISOString();
    this.store.cacheIndex.upsert({
      key,
      file,
      format: this.settings.format,
      compression: this.settings.compression,
      modelFile: description.modelFile,
      parameters: description.parameters,
      createdAt: created,
      accessedAt: created,
      accessCount: 0,
      sizeBytes,
      expiresAt: this.settings.ttlSeconds > 0 ? new Date(this.now() + this.settings.ttlSeconds * 1000).toISOString() : null,
      runMs: description.runMs,
    });
  }

  entry(key: string): CacheEntryRecord | undefined {
    return this.store.cacheIndex.get(key);
  }

  /** Removes expired entries; returns how many. */
  sweep(): number {
    const expired = this.store.cacheIndex.expired(new Date(this.now()).toISOString());
    for (const entry of expired) this.remove(entry);
    return expired.length;
  }

  clear(): { removed: number; bytes: number } {
    const entries = this.store.cacheIndex.clear();
    let bytes = 0;
    for (const entry of entries) {
      bytes += entry.sizeBytes;
      rmSync(join(this.settings.dir, entry.file), { force: true });
    }
    return { removed: entries.length, bytes };
  }

  stats(): CacheStats {
    const hits = this.store.counters.get(HITS);
    const misses = this.store.counters.get(MISSES);
    const summary = this.store.cacheIndex.summary();
    return {
      enabled: this.settings.enabled,
      hits,
      misses,
      hitRate: hits + misses > 0 ? hits / (hits + misses) : 0,
      entries: summary.entries,
      format: this.settings.format,
      compression: this.settings.compression,
      diskBytes: summary.bytes,
      oldest: summary.oldest,
      newest: summary.newest,
    };
  }

  private remove(entry: CacheEntryRecord): void {
    this.store.cacheIndex.delete(entry.key);
    rmSync(join(this.settings.dir, entry.file), { force: true });
  }
}
