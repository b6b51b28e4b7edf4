// The islands' fetch helper (spec §7, §8): same-origin /api, cookies included, JSON, no retries.
// A failed answer raises an Error whose message is `status: body-or-status-text`.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  return new ApiError(response.status, `${response.status}: ${text || response.statusText}`);
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | null;
  /** Serialised as JSON; omitted for a body-less POST. */
  body?: unknown;
  /** With `on401: 'null'`, a 401 answer resolves to null instead of raising. */
  on401?: 'throw' | 'null';
  signal?: AbortSignal;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.method === 'POST') headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    credentials: 'include',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (response.status === 401 && options.on401 === 'null') return null as T;
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/** The message an API error carries in its JSON body, for showing to people. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const body = error.message.slice(error.message.indexOf(':') + 2);
    try {
      const parsed = JSON.parse(body) as { error?: unknown };
      if (typeof parsed.error === 'string') return parsed.error;
    } catch {
      // not JSON: fall through to the raw message
    }
  }
  return error instanceof Error ? error.message : String(error);
}
