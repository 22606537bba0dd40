// An XML-RPC client over node:http, as the job queue uses it to drive a simulator (`pesim serve`
// or any server speaking the PLECS dialect). A fault comes back as XmlRpcFault; a failure to reach
// the server, a time-out or an answer that is not XML-RPC as XmlRpcConnectionError.
import { request as httpRequest, Agent } from 'node:http';
import { decodeMethodResponse } from './decode.js';
import { encodeMethodCall } from './encode.js';
import { readXml } from './xml-reader.js';
import { XmlRpcFault, type XmlRpcValue } from './values.js';
import { PesimError } from '../errors/pesim-error.js';

export class XmlRpcConnectionError extends PesimError {
  constructor(message: string) {
    super('XMLRPC_CONNECTION', message);
  }
}

export interface XmlRpcClientOptions {
  host: string;
  port: number;
  /** URL path (default /RPC2). */
  path?: string;
  /** Seconds a call may take, connection included. */
  timeoutSeconds: number;
  /** Sent as X-API-Key when set. */
  apiKey?: string;
}

/** Largest response read [bytes]. */
const MAX_RESPONSE_BYTES = 1024 ** 3;

export class XmlRpcClient {
  private readonly agent = new Agent({ keepAlive: true });

  constructor(private readonly options: XmlRpcClientOptions) {}

  get address(): string {
    return `http://${this.options.host}:${this.options.port}${this.options.path ?? '/RPC2'}`;
  }

  /** Calls a method; `timeoutSeconds` overrides the client's time-out for this call; aborting `signal` drops the call. */
  call(methodName: string, params: XmlRpcValue[], timeoutSeconds = this.options.timeoutSeconds, signal?: AbortSignal): Promise<XmlRpcValue> {
    const body = Buffer.from(encodeMethodCall(methodName, params), 'utf8');
    const headers: Record<string, string | number> = { 'Content-Type': 'text/xml', 'Content-Length': body.length };
    if (this.options.apiKey) headers['X-API-Key'] = this.options.apiKey;
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: this.options.host, port: this.options.port, path: this.options.path ?? '/RPC2', method: 'POST', headers, agent: this.agent, signal },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) req.destroy(new XmlRpcConnectionError(`${this.address}: the response exceeds ${MAX_RESPONSE_BYTES} bytes`));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            if (res.statusCode !== 200) {
              reject(new XmlRpcConnectionError(`${this.address} answered HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`));
              return;
            }
            try {
              const response = decodeMethodResponse(readXml(Buffer.concat(chunks).toString('utf8'), { maxDepth: 256 }));
              if (response.ok) resolve(response.value);
              else reject(new XmlRpcFault(response.faultCode, response.faultString));
            } catch (error) {
              reject(new XmlRpcConnectionError(`${this.address} answered something that is not an XML-RPC response: ${(error as Error).message}`));
            }
          });
          res.on('error', (error) => reject(new XmlRpcConnectionError(`${this.address}: ${error.message}`)));
        },
      );
      req.setTimeout(timeoutSeconds * 1000, () => req.destroy(new XmlRpcConnectionError(`${this.address}: no answer to ${methodName} within ${timeoutSeconds} s`)));
      req.on('error', (error) => reject(error instanceof XmlRpcConnectionError ? error : new XmlRpcConnectionError(`${this.address}: ${error.message}`)));
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
