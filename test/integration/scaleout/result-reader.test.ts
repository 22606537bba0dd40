// The BullMQ executor's result reader against a real redis-server: hash fields of any size (across
// many socket reads, and empty) written to their files exactly, pipelined fetches answered in
// order, a missing field, a file that cannot be written (the connection goes on), a password and
// a database in the URL, a wrong password named, and a Redis restart between fetches.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { closeConnection, redisConnection } from '../../../src/jobs/executors/bullmq/connection.js';
import { parseRedisUrl } from '../../../src/jobs/executors/bullmq/redis-url.js';
import { ResultReader } from '../../../src/jobs/executors/bullmq/result-reader.js';
import { TestRedis } from './cluster.js';

describe('scale-out: result files read from Redis straight into their files', function () {
  this.timeout(60_000);
  let redis: TestRedis;
  let client: Redis;
  let dir: string;

  before(async () => {
    redis = await TestRedis.start();
    client = redisConnection(redis.url, 'pesim:test');
    client.on('error', () => undefined); // Redis restarts in one test
    dir = mkdtempSync(join(tmpdir(), 'pesim-reader-'));
  });
  after(async () => {
    if (client) await closeConnection(client, 1000);
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes fields of any size to their files, pipelined and in order, and says when a field is missing', async () => {
    const sizes = [0, 1, 4096, 1 << 20, 3_000_001, 472_169, 17];
    const values = sizes.map((size) => randomBytes(size));
    await Promise.all(values.map((bytes, i) => client.hset(`r:${i}`, { outcome: '{}', bytes })));
    const reader = new ResultReader(parseRedisUrl(redis.url), 'pesim:test:files');
    try {
      const found = await Promise.all(values.map((_, i) => reader.fetch(`r:${i}`, 'bytes', join(dir, `${i}.bin`), i % 2 === 0)));
      expect(found).to.deep.equal(values.map(() => true));
      values.forEach((bytes, i) => expect(readFileSync(join(dir, `${i}.bin`)).equals(bytes), `file ${i}`).to.equal(true));
      expect(await reader.fetch('r:0', 'nothing', join(dir, 'none.bin'), false)).to.equal(false);
      expect(await reader.fetch('absent', 'bytes', join(dir, 'none.bin'), false)).to.equal(false);
      expect(existsSync(join(dir, 'none.bin'))).to.equal(false);
    } finally {
      reader.close();
    }
  });

  it('fails a file it cannot write, leaves no temporary file, and answers the next fetch on the same connection', async () => {
    const bytes = randomBytes(2_500_000);
    await client.hset('r:big', { bytes });
    const reader = new ResultReader(parseRedisUrl(redis.url), 'pesim:test:files');
    try {
      const [missing, next] = await Promise.allSettled([
        reader.fetch('r:big', 'bytes', join(dir, 'no-such-dir', 'x.bin'), false),
        reader.fetch('r:big', 'bytes', join(dir, 'after.bin'), false),
      ]);
      expect(missing.status).to.equal('rejected');
      expect((missing as PromiseRejectedResult).reason.message).to.contain('ENOENT');
      expect(next.status).to.equal('fulfilled');
      expect(readFileSync(join(dir, 'after.bin')).equals(bytes)).to.equal(true);
      expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).to.deep.equal([]);
    } finally {
      reader.close();
    }
  });

  it('fails the fetches it holds when Redis stops, and connects again for the next', async () => {
    const bytes = randomBytes(100_000);
    await client.hset('r:restart', { bytes });
    const reader = new ResultReader(parseRedisUrl(redis.url), 'pesim:test:files');
    try {
      expect(await reader.fetch('r:restart', 'bytes', join(dir, 'before.bin'), false)).to.equal(true);
      const restarted = redis.restart(1500);
      while (client.status === 'ready') await new Promise((r) => setTimeout(r, 20));
      const held = await reader.fetch('r:restart', 'bytes', join(dir, 'down.bin'), false).then(() => undefined, (error: Error) => error);
      expect(held?.message).to.match(/ECONNREFUSED|closed/);
      await restarted;
      await client.ping(); // Redis serves again (from its append-only file)
      expect(await reader.fetch('r:restart', 'bytes', join(dir, 'again.bin'), false)).to.equal(true);
      expect(readFileSync(join(dir, 'again.bin')).equals(bytes)).to.equal(true);
    } finally {
      reader.close();
    }
  });

  it('logs in with the URL\'s password, selects its database, and names a wrong password', async () => {
    const secured = await TestRedis.start(['--requirepass', 's3cret']);
    const url = `redis://:s3cret@127.0.0.1:${secured.port}/3`;
    const other = redisConnection(url, 'pesim:test');
    try {
      await other.hset('r:db3', { bytes: 'in database 3' });
      const reader = new ResultReader(parseRedisUrl(url), 'pesim:test:files');
      expect(await reader.fetch('r:db3', 'bytes', join(dir, 'db3.bin'), false)).to.equal(true);
      reader.close();
      expect(readFileSync(join(dir, 'db3.bin'), 'utf8')).to.equal('in database 3');
      const wrong = new ResultReader(parseRedisUrl(`redis://:wrong@127.0.0.1:${secured.port}/3`), 'pesim:test:files');
      const failure = await wrong.fetch('r:db3', 'bytes', join(dir, 'wrong.bin'), false).then(() => undefined, (error: Error) => error);
      wrong.close();
      expect(failure?.message).to.match(/WRONGPASS|invalid password/);
      expect(existsSync(join(dir, 'wrong.bin'))).to.equal(false);
    } finally {
      await closeConnection(other, 1000);
      await secured.stop();
    }
  });
});
