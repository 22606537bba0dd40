// The thread that parses large JSON request bodies (json-off-thread.ts): UTF-8 decoding, JSON.parse
// and the checks of findJsonBodyProblem, so that none of it holds up the service's event loop.
// Each message is { id, bytes, strict }; each answer { id, value } or { id, problem } (a
// JsonBodyProblem) or { id, syntax } (the parser's message).
import { parentPort } from 'node:worker_threads';
import { findJsonBodyProblem } from './json-body.js';

interface ParseRequest {
  id: number;
  bytes: Uint8Array;
  /** Only an object or an array at the top (co-body's strict mode). */
  strict: boolean;
}

const decoder = new TextDecoder('utf-8');

parentPort!.on('message', ({ id, bytes, strict }: ParseRequest) => {
  const text = decoder.decode(bytes);
  const first = /\S/.exec(text)?.[0];
  if (strict && first !== '{' && first !== '[') {
    parentPort!.postMessage({ id, syntax: 'the body must be a JSON object or array' });
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    parentPort!.postMessage({ id, syntax: (error as Error).message });
    return;
  }
  const problem = findJsonBodyProblem(value);
  parentPort!.postMessage(problem ? { id, problem } : { id, value });
});
