// The islands' API client: Hono's typed client over the API's own routes, so a renamed field or
// path fails `npm run check`. Same-origin /api, cookies included, JSON, no retries. A failed
// answer raises an ApiError whose message is `status: body-or-status-text`.
import { type ClientResponse, DetailedError, hc, parseResponse } from 'hono/client';
import type { AppType } from '../../api/app.ts';
import type { ErrorBody } from '../../api/contract.ts';

export const api = hc<AppType>('/', { init: { credentials: 'include' } }).api;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The API's own sentence (`{ "error": ... }`), when it sent one. */
    readonly reason: string | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function isErrorBody(data: unknown): data is ErrorBody {
  return typeof data === 'object' && data !== null && 'error' in data && typeof data.error === 'string';
}

/** The API's sentence from an error body, whether it arrived parsed or as text. */
function reasonOf(data: unknown): string | null {
  if (isErrorBody(data)) return data.error;
  if (typeof data !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(data);
    return isErrorBody(parsed) ? parsed.error : null;
  } catch {
    return null;
  }
}

/** The success body of a typed call; any other answer raises an ApiError. */
export async function read<T extends ClientResponse<unknown>>(request: T | Promise<T>) {
  try {
    return await parseResponse(request);
  } catch (error) {
    if (!(error instanceof DetailedError)) throw error;
    const status = Number(error.statusCode);
    const detail: unknown = error.detail;
    const data = typeof detail === 'object' && detail !== null && 'data' in detail ? detail.data : undefined;
    const statusText =
      typeof detail === 'object' && detail !== null && 'statusText' in detail
        ? String(detail.statusText)
        : '';
    const text = typeof data === 'string' ? data : data === undefined ? '' : JSON.stringify(data);
    throw new ApiError(status, `${status}: ${text || statusText}`, reasonOf(data));
  }
}

/** Request options that send the signed-in parent's ID token. */
export function withToken(token: string | null, extra: Record<string, string> = {}) {
  return { headers: token ? { ...extra, Authorization: `Bearer ${token}` } : extra };
}

/** The message to show people for a failed call: the API's own sentence when there is one. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError && error.reason) return error.reason;
  return error instanceof Error ? error.message : String(error);
}
