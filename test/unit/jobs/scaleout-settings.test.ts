// The pieces of the scale-out path that need no Redis: Redis URLs (a wrong one fails before any
// connection is made) and the queue settings of both services (PESIM_QUEUE=bullmq without a Redis
// URL, or with a wrong one, stops the start-up, naming the setting).
import { expect } from 'chai';
import { resolve } from 'node:path';
import { redisConnection } from '../../../src/jobs/executors/bullmq/connection.js';
import { parseRedisUrl } from '../../../src/jobs/executors/bullmq/redis-url.js';
import { queueSettingsFromEnv } from '../../../src/jobs/executors/bullmq/settings.js';
import { loadSimulationServiceConfig as loadServeConfig } from '../../../src/server/config.js';
import { loadJobqConfig } from '../../../src/jobq/config.js';

describe('scale-out settings and Redis URLs', () => {
  it('reads Redis URLs and names what is expected of a wrong one', () => {
    expect(parseRedisUrl('redis://:s%40cret@10.0.0.5:6380/2')).to.deep.equal({ host: '10.0.0.5', port: 6380, username: undefined, password: 's@cret', db: 2 });
    expect(parseRedisUrl('redis://localhost')).to.include({ host: 'localhost', port: 6379, db: 0 });
    expect(() => parseRedisUrl('rediss://h:1')).to.throw('must start with redis://');
    expect(() => parseRedisUrl('not a url')).to.throw('redis://host:6379/0');
    expect(() => parseRedisUrl('redis://h:1/x')).to.throw('database in the Redis URL');
  });

  it('refuses to connect to a wrong Redis URL, saying what is expected', () => {
    expect(() => redisConnection('127.0.0.1:6379', 'pesim:test')).to.throw('must look like redis://host:6379/0');
    expect(() => redisConnection('redis://h:1/db0', 'pesim:test')).to.throw('must be a number such as /0');
  });

  it('takes PESIM_QUEUE, PESIM_REDIS_URL and PESIM_MAX_RESULT_MB from the environment, embedded by default', () => {
    expect(queueSettingsFromEnv({})).to.deep.equal({ backend: 'embedded', redisUrl: undefined, maxResultMb: 64, sharedResultsDir: undefined });
    expect(queueSettingsFromEnv({ PESIM_QUEUE: 'bullmq', PESIM_REDIS_URL: 'redis://r:1/0', PESIM_MAX_RESULT_MB: '8' })).to.deep.equal({ backend: 'bullmq', redisUrl: 'redis://r:1/0', maxResultMb: 8, sharedResultsDir: undefined });
    expect(() => queueSettingsFromEnv({ PESIM_QUEUE: 'kafka' })).to.throw('PESIM_QUEUE must be one of embedded, bullmq');
  });

  it('stops both services\' start-up on bullmq without a Redis URL, naming the setting', () => {
    expect(() => loadServeConfig({ env: { PESIM_QUEUE: 'bullmq' } })).to.throw('sim.api.redis-url (PESIM_REDIS_URL)');
    expect(loadServeConfig({ env: { PESIM_QUEUE: 'bullmq', PESIM_REDIS_URL: 'redis://r:6379/0' } })).to.include({ queue: 'bullmq', redisUrl: 'redis://r:6379/0' });
    expect(() => loadJobqConfig({ env: { PESIM_QUEUE: 'bullmq' } })).to.throw('redis_url (PESIM_REDIS_URL)');
    expect(() => loadJobqConfig({ env: { PESIM_QUEUE: 'bullmq', PESIM_REDIS_URL: 'http://r' } })).to.throw('must start with redis://');
    expect(loadJobqConfig({ env: {} })).to.include({ queue: 'embedded', redis_url: '', max_result_mb: 64 });
  });

  it('takes the shared results folder from each service\'s setting or PESIM_SHARED_RESULTS_DIR, as an absolute path', () => {
    expect(queueSettingsFromEnv({ PESIM_SHARED_RESULTS_DIR: 'shared' }).sharedResultsDir).to.equal(resolve('shared'));
    expect(loadServeConfig({ env: { PESIM_SHARED_RESULTS_DIR: '/mnt/r' } })).to.include({ sharedResultsDir: '/mnt/r' });
    expect(loadServeConfig({ env: {} })).to.include({ sharedResultsDir: '' });
    expect(loadJobqConfig({ env: { PESIM_SHARED_RESULTS_DIR: 'r' } })).to.include({ shared_results_dir: resolve('r') });
    expect(loadJobqConfig({ env: {} })).to.include({ shared_results_dir: '' });
  });
});
