// The result cache: entries are result files in the cache directory, indexed in SQLite. A hit
// completes a task at once; expired entries are removed on lookup and by sweep(); a file that cannot
// be read is treated as a miss, removed, and logged.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../../store/types.js';
import type { CacheEntryRecord, Compression, StorageFormat, StoredResult, TaskSpec } from '../types.js';
import { checkCombination, fileExtension, readResult, writeResult } from './formats/index.js';
import { cacheKey, type CacheKeyOptions } from './key.js';

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

  keyFor(spec: TaskSpec): string {
    const options: CacheKeyOptions = { ...this.settings, engineVersion: this.engineVersion };
    return cacheKey(spec, options);
  }

  /** The cached result and its entry, or undefined (counted as a miss). */
  async lookup(key: string): Promise<{ result: StoredResult; entry: CacheEntryRecord } | undefined> {
    if (!this.settings.enabled) return undefined;
    const entry = this.store.cacheIndex.get(key);
    if (!entry || (entry.expiresAt !== null && Date.parse(entry.expiresAt) <= this.now())) {
      if (entry) this.remove(entry);
      this.store.counters.add(MISSES, 1);
      return undefined;
    }
    try {
      const result = await readResult(join(this.settings.dir, entry.file), entry.format);
      this.store.cacheIndex.touch(key, new Date(this.now()).toISOString());
      this.store.counters.add(HITS, 1);
      return { result, entry: this.store.cacheIndex.get(key) ?? entry };
    } catch (error) {
      this.store.logs.append({
        timestamp: new Date(this.now()).toISOString(),
        level: 'WARNING',
        message: `cache entry ${key} could not be read and was removed: ${(error as Error).message}`,
      });
      this.remove(entry);
      this.store.counters.add(MISSES, 1);
      return undefined;
    }
  }

  async put(key: string, result: StoredResult, description: { modelFile: string; parameters: Record<string, number>; runMs: number }): Promise<void> {
    if (!this.settings.enabled) return;
    const file = `${key}${fileExtension(this.settings.format, this.settings.compression)}`;
    const sizeBytes = await writeResult(join(this.settings.dir, file), result, this.settings.format, this.settings.compression);
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
