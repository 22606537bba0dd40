// The job-queue service's cache bodies (spec §4: /cache/stats, /cache/clear, /cache/entry/{key}) from
// the runtime's result cache figures and entries.
import type { CacheStats } from '../jobs/cache/result-cache.js';
import type { CacheEntryRecord } from '../store/records.js';
import type { CacheClearResponse, CacheEntryResponse, CacheStatsResponse } from './models.js';

const MIB = 1024 * 1024;

export function presentCacheStats(s: CacheStats): CacheStatsResponse {
  return {
    enabled: s.enabled,
    hits: s.hits,
    misses: s.misses,
    hit_rate: s.hitRate,
    total_entries: s.entries,
    storage_format: s.format,
    compression: s.compression,
    disk_usage_mb: s.diskBytes / MIB,
    oldest_entry: s.oldest,
    newest_entry: s.newest,
  };
}

export function presentCacheCleared({ removed, bytes }: { removed: number; bytes: number }): CacheClearResponse {
  return { message: `Cache cleared: ${removed} entries removed`, entries_removed: removed, disk_space_freed_mb: bytes / MIB };
}

export function presentCacheEntry(entry: CacheEntryRecord): CacheEntryResponse {
  return {
    cache_key: entry.key,
    model_file: entry.modelFile,
    parameters: entry.parameters,
    created_at: entry.createdAt,
    accessed_at: entry.accessedAt,
    access_count: entry.accessCount,
    size_bytes: entry.sizeBytes,
    storage_format: entry.format,
  };
}
