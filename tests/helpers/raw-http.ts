import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One TCP connection speaking HTTP/1.1 by hand, so a test sees exactly what the server does with
 * the connection: what it answers before a body has been sent, whether it keeps the connection
 * open, and whether it ends it cleanly or resets it. Answers must carry a Content-Length.
 */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  private failure: Error | null = null;
  /** How the server ended the connection: 'end' (a clean close) or 'reset'. */
  readonly ended: Promise<'end' | 'reset'>;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    this.ended = new Promise((resolve) => {
      socket.once('end', () => resolve('end'));
      socket.once('error', (error: NodeJS.ErrnoException) => {
        this.failure = error;
        this.waiting?.();
        resolve(error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 'reset' : 'end');
      });
    });
    socket.once('close', () => {
      this.failure ??= new Error('connection closed');
      this.waiting?.();
    });
  }

  static open(url: string, localAddress?: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port), localAddress }, () =>
        resolve(new RawConnection(socket)),
      );
      socket.once('error', reject);
    });
  }

  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** The next answer on this connection. */
  async response(timeoutMs = 5_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.take();
      if (parsed) return parsed;
      if (this.failure) throw this.failure;
      if (Date.now() > deadline) throw new Error('no answer in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiting = null;
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private take(): RawResponse | null {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return null;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  }
}

/** A request's head, as a client writes it before its body. */
export function requestHead(
  method: string,
  path: string,
  headers: Record<string, string | number> = {},
): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: localhost'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}
