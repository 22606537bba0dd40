// Entry of the Redis bridge thread of a service in BullMQ mode (see bridge.ts): takes the runs the
// service's BullmqExecutor sends, answers their ends and the Redis and worker state, and closes on
// request. The executor starts it with the bridge's options as workerData.
import { parentPort, workerData } from 'node:worker_threads';
import { RedisBridge } from './bridge.js';
import type { BridgeOptions, FromBridge, ToBridge } from './bridge-messages.js';

const port = parentPort!;
const send = (message: FromBridge): void => port.postMessage(message);
const bridge = new RedisBridge(workerData as BridgeOptions, {
  ended: (ends) => send({ kind: 'ended', ends }),
  changed: (state) => send({ kind: 'state', state }),
});
port.on('message', (message: ToBridge) => {
  if (message.kind === 'runs') {
    bridge.add(message.runs);
  } else {
    void bridge.close().finally(() => {
      send({ kind: 'closed' });
      port.close();
    });
  }
});
send({ kind: 'ready' });
