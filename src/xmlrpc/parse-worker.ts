// The thread that parses large XML-RPC request bodies (parse-thread.ts): UTF-8 decoding, the
// bounded XML reader and the method-call decoding, so that none of it holds up the event loop.
// Each message is { id, bytes, maxDepth }; each answer { id, call } or { id, fault: {code, message} }.
import { parentPort } from 'node:worker_threads';
import { decodeMethodCall } from './decode.js';
import { readXml } from './xml-reader.js';
import { FAULT, XmlRpcFault } from './values.js';

interface ParseRequest {
  id: number;
  bytes: Uint8Array;
  maxDepth: number;
}

const decoder = new TextDecoder('utf-8');

parentPort!.on('message', ({ id, bytes, maxDepth }: ParseRequest) => {
  try {
    const call = decodeMethodCall(readXml(decoder.decode(bytes), { maxDepth }));
    parentPort!.postMessage({ id, call });
  } catch (error) {
    const fault = error instanceof XmlRpcFault ? error : new XmlRpcFault(FAULT.PARSE_ERROR, String(error));
    parentPort!.postMessage({ id, fault: { code: fault.faultCode, message: fault.message } });
  }
});
