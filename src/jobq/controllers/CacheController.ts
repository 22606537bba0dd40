// Routes of spec §4 for the result cache: statistics, clearing (confirm=true) and one entry.
import { Controller, Get, Path, Post, Query, Response, Route, Tags } from '@tsoa/runtime';
import type { CacheClearResponse, CacheEntryResponse, CacheStatsResponse, ErrorResponse } from '../models.js';
import type { JobqService } from '../service.js';
import { presentCacheCleared, presentCacheEntry, presentCacheStats } from '../CachePresenter.js';

@Route('cache')
@Tags('Cache')
export class CacheController extends Controller {
  constructor(private readonly service: JobqService) {
    super();
  }

  @Get('stats')
  public async getCacheStats(): Promise<CacheStatsResponse> {
    return presentCacheStats(this.service.cacheStats());
  }

  /** Removes every entry and its file; refused (400 CONFIRMATION_REQUIRED) unless `confirm=true`. */
  @Post('clear')
  @Response<ErrorResponse>(400, 'CONFIRMATION_REQUIRED')
  public async clearCache(@Query() confirm = false): Promise<CacheClearResponse> {
    return presentCacheCleared(this.service.clearCache(confirm));
  }

  /** @param cache_key the SHA-256 key (hex) of the entry, as in a task record's cache_key */
  @Get('entry/{cache_key}')
  @Response<ErrorResponse>(404, 'CACHE_ENTRY_NOT_FOUND')
  public async getCacheEntry(@Path() cache_key: string): Promise<CacheEntryResponse> {
    return presentCacheEntry(this.service.cacheEntry(cache_key));
  }
}
