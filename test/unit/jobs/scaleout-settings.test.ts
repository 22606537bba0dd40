// The pieces of the scale-out path that need no Redis: the RESP reply parser (replies split across
// chunks, bytes on request, errors as values), Redis URLs, and the queue settings of both services
// (PESIM_QUEUE=bullmq without a Redis URL stops the start-up, naming the setting).
import { expect } from 'chai';
import { encodeCommand, ReplyError, RespParser } from '../../../src/jobs/executors/bullmq/resp.js';
import { parseRedisUrl } from '../../../src/jobs/executors/bullmq/redis-url.js';
import { queueSettingsFromEnv } from '../../../src/jobs/executors/bullmq/settings.js';
import { loadConfig as loadServeConfig } from '../../../src/server/config.js';
import { loadConfig as loadJobqConfig } from '../../../src/jobq/config.js';

describe('scale-out settings and the Redis protocol', () => {
  it('encodes commands as arrays of bulk strings, bytes as they are', () => {
    expect(encodeCommand(['SET', 'k', Buffer.from([0, 255]), 7]).toString('latin1')).to.equal('*4\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\n\u0000\u00ff\r\n$1\r\n7\r\n');
  });

  it('parses replies split anywhere across chunks, in order', () => {
    const wire = Buffer.from('+OK\r\n:42\r\n$4\r\nhé!\r\n*3\r\n$-1\r\n*1\r\n:1\r\n-ERR wrong\r\n$0\r\n\r\n');
    for (let cut = 1; cut < wire.length; cut++) {
      const parser = new RespParser();
      const replies = [...parser.push(wire.subarray(0, cut)), ...parser.push(wire.subarray(cut))];
      expect(replies.slice(0, 3), `cut at ${cut}`).to.deep.equal(['OK', 42, 'hé!']);
      const array = replies[3] as unknown[];
      expect(array[0]).to.equal(null);
      expect(array[1]).to.deep.equal([1]);
      expect(array[2]).to.be.instanceOf(ReplyError).and.have.property('message', 'ERR wrong');
      expect(replies[4]).to.equal('');
    }
  });

  it('assembles a large bulk reply once from many chunks, as bytes when asked', () => {
    const payload = Buffer.alloc(300_000, 7);
    const wire = Buffer.concat([Buffer.from(`$${payload.length}\r\n`), payload, Buffer.from('\r\n')]);
    const parser = new RespParser();
    const replies: unknown[] = [];
    for (let at = 0; at < wire.length; at += 65_536) replies.push(...parser.push(wire.subarray(at, at + 65_536), () => true));
    expect(replies).to.have.length(1);
    expect(Buffer.isBuffer(replies[0])).to.equal(true);
    expect((replies[0] as Buffer).equals(payload)).to.equal(true);
  });

  it('reads Redis URLs and names what is expected of a wrong one', () => {
    expect(parseRedisUrl('redis://:s%40cret@10.0.0.5:6380/2')).to.deep.equal({ host: '10.0.0.5', port: 6380, username: undefined, password: 's@cret', db: 2 });
    expect(parseRedisUrl('redis://localhost')).to.include({ host: 'localhost', port: 6379, db: 0 });
    expect(() => parseRedisUrl('rediss://h:1')).to.throw('must start with redis://');
    expect(() => parseRedisUrl('not a url')).to.throw('redis://host:6379/0');
    expect(() => parseRedisUrl('redis://h:1/x')).to.throw('database in the Redis URL');
  });

  it('takes PESIM_QUEUE, PESIM_REDIS_URL and PESIM_MAX_RESULT_MB from the environment, embedded by default', () => {
    expect(queueSettingsFromEnv({})).to.deep.equal({ backend: 'embedded', redisUrl: undefined, maxResultMb: 64 });
    expect(queueSettingsFromEnv({ PESIM_QUEUE: 'bullmq', PESIM_REDIS_URL: 'redis://r:1/0', PESIM_MAX_RESULT_MB: '8' })).to.deep.equal({ backend: 'bullmq', redisUrl: 'redis://r:1/0', maxResultMb: 8 });
    expect(() => queueSettingsFromEnv({ PESIM_QUEUE: 'kafka' })).to.throw('PESIM_QUEUE must be one of embedded, bullmq');
  });

  it('stops both services\' start-up on bullmq without a Redis URL, naming the setting', () => {
    expect(() => loadServeConfig({ env: { PESIM_QUEUE: 'bullmq' } })).to.throw('sim.api.redis-url (PESIM_REDIS_URL)');
    expect(loadServeConfig({ env: { PESIM_QUEUE: 'bullmq', PESIM_REDIS_URL: 'redis://r:6379/0' } })).to.include({ queue: 'bullmq', redisUrl: 'redis://r:6379/0' });
    expect(() => loadJobqConfig({ env: { PESIM_QUEUE: 'bullmq' } })).to.throw('redis_url (PESIM_REDIS_URL)');
    expect(() => loadJobqConfig({ env: { PESIM_QUEUE: 'bullmq', PESIM_REDIS_URL: 'http://r' } })).to.throw('must start with redis://');
    expect(loadJobqConfig({ env: {} })).to.include({ queue: 'embedded', redis_url: '', max_result_mb: 64 });
  });
});
