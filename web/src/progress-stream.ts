// Follows a simulation's progress stream (GET /api/v1/simulations/{id}/stream, server-sent
// events). Read with fetch rather than EventSource so that the X-API-Key header can be sent; a
// dropped connection is resumed after the last message received (?lastEventId=n), as the service
// documents; the final message (COMPLETED, FAILED, CANCELLED) or a 204 ends it.
import { authHeaders } from './api.js';

export interface ProgressMessage {
  simulationId: string;
  progress: number;
  currentTime: number;
  endTime: number;
  step: number;
  totalSteps: number;
  status: string;
  timestamp: string;
  errorMessage: string | null;
}

const FINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

/** Parses the complete events in `buffer`; returns the rest (an event still arriving). */
function takeEvents(buffer: string, onEvent: (id: number | undefined, data: string) => void): string {
  const parts = buffer.split(/\r?\n\r?\n/);
  const rest = parts.pop() ?? '';
  for (const part of parts) {
    let id: number | undefined;
    const data: string[] = [];
    for (const line of part.split(/\r?\n/)) {
      if (line.startsWith('id:')) id = Number(line.slice(3).trim());
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length) onEvent(id, data.join('\n'));
  }
  return rest;
}

/**
 * Calls `onMessage` for every progress message until the final one; resolves with the final
 * status ('COMPLETED', ...) or undefined when the stream ended without one (then ask the status).
 */
export async function followProgress(simulationId: string, onMessage: (m: ProgressMessage) => void, signal: AbortSignal): Promise<string | undefined> {
  let lastId = 0;
  for (let attempt = 0; attempt < 20 && !signal.aborted; attempt++) {
    const query = lastId ? `?lastEventId=${lastId}` : '';
    let final: string | undefined;
    try {
      const response = await fetch(`/api/v1/simulations/${encodeURIComponent(simulationId)}/stream${query}`, { headers: { Accept: 'text/event-stream', ...authHeaders() }, signal });
      if (response.status === 204 || !response.ok || !response.body) return undefined;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer = takeEvents(buffer + value, (id, data) => {
          if (id !== undefined && Number.isFinite(id)) lastId = id;
          const message = JSON.parse(data) as ProgressMessage;
          onMessage(message);
          if (FINAL.has(message.status)) final = message.status;
        });
        if (final) {
          await reader.cancel();
          return final;
        }
      }
    } catch (error) {
      if (signal.aborted) return undefined;
      console.warn('progress stream interrupted', error);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return undefined;
}
