import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WebhookPayload } from '@claims/contracts';

/** One delivery as a receiver got it, checked with the `standardwebhooks` package against its endpoint's secrets. */
export interface ReceivedWebhook {
  webhookId: string;
  payload: WebhookPayload;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether `standardwebhooks` accepted the signature with one of the endpoint's secrets. */
  verified: boolean;
}

/** What the receiver does with a delivery: answer now, or never (the sender times out). */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A webhook receiver on a port of its own, as an integrator writes one with the `standardwebhooks`
 * package: every delivery is verified with the secrets given (several during a rotation). It can be
 * stopped (connections refused) and started again on the same port.
 */
export class StandardWebhookReceiver {
  readonly deliveries: ReceivedWebhook[] = [];
  /** Every secret the endpoint's deliveries may be signed with. */
  readonly secrets: string[] = [];
  /** Requests not answered yet (a hanging receiver's), and the most there ever were at once. */
  open = 0;
  maxOpen = 0;
  private server: http.Server | null = null;
  private port = 0;
  private readonly hanging = new Set<http.ServerResponse>();

  constructor(private answer: (delivery: ReceivedWebhook, tries: number) => ReceiverAnswer = () => ({ status: 204 })) {}

  async start(): Promise<string> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      this.open++;
      this.maxOpen = Math.max(this.maxOpen, this.open);
      response.on('close', () => {
        this.open--;
        this.hanging.delete(response);
      });
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const delivery: ReceivedWebhook = {
          webhookId: String(request.headers['webhook-id']),
          payload: WebhookPayload.parse(JSON.parse(body)),
          headers: request.headers,
          body,
          verified: this.verify(body, request.headers),
        };
        this.deliveries.push(delivery);
        const answer = this.answer(delivery, this.deliveries.filter((d) => d.webhookId === delivery.webhookId).length);
        if (answer === 'hang') {
          this.hanging.add(response);
          return;
        }
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Answers how the receiver treats deliveries from now on. */
  answerWith(answer: (delivery: ReceivedWebhook, tries: number) => ReceiverAnswer): void {
    this.answer = answer;
  }

  /** How many times each webhook-id arrived. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const d of this.deliveries) counts.set(d.webhookId, (counts.get(d.webhookId) ?? 0) + 1);
    return counts;
  }

  /** Stops listening and drops every connection: deliveries are refused until it starts again. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const response of this.hanging) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  private verify(body: string, headers: http.IncomingHttpHeaders): boolean {
    const wanted = {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    };
    return this.secrets.some((secret) => {
      try {
        new Webhook(secret).verify(body, wanted);
        return true;
      } catch {
        return false;
      }
    });
  }
}
