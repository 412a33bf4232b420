import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import {
  CreateApiTokenResponse,
  CreateWebhookEndpointResponse,
  FileClaimResponse,
  Message,
  WebhookPayload,
  WhitelabelSettings,
  type Permission,
} from '@claims/contracts';
import { filingBody, orderBody } from './orderBody.js';

/**
 * The fault suite's traffic: a webhook receiver counting deliveries per `webhook-id`, and lanes of
 * shoppers and integrators over real HTTP (fresh order, filing, messages, resolution) recording
 * every answer with its time.
 */

export interface Delivery {
  webhookId: string;
  payload: WebhookPayload;
  receivedAt: number;
}

/** Answers 204 to everything and keeps each delivery; a repeat of a `webhook-id` is counted, not answered differently. */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  private server: http.Server | null = null;

  async start(): Promise<string> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.deliveries.push({
          webhookId: String(request.headers['webhook-id']),
          payload: WebhookPayload.parse(JSON.parse(Buffer.concat(chunks).toString('utf8'))),
          receivedAt: Date.now(),
        });
        response.statusCode = 204;
        response.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** How many times each webhook-id arrived. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const d of this.deliveries) counts.set(d.webhookId, (counts.get(d.webhookId) ?? 0) + 1);
    return counts;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

export interface Answer {
  status: number;
  body: string;
  headers: Headers;
  startedAt: number;
  endedAt: number;
}

/** No answer at all: refused, reset or timed out (the API process was down or killed). */
export class NoAnswer extends Error {
  constructor(
    readonly startedAt: number,
    readonly endedAt: number,
    cause: unknown,
  ) {
    super(
      `no answer: ${cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause)}`,
    );
  }
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  cookie?: string;
}

export class ApiClient {
  constructor(readonly base: string) {}

  /** Passes once `url` answers `status`; a process down fails it as status 0, for a poll to try again. */
  async expectStatus(url: string, status = 200): Promise<void> {
    const answer = await this.call('GET', url).catch((error: unknown) => {
      if (error instanceof NoAnswer) return { status: 0, body: error.message };
      throw error;
    });
    expect(answer.status, answer.body).toBe(status);
  }

  async call(method: string, url: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    // A cookie-authenticated change must come from the server's own origin.
    if (options.cookie) Object.assign(headers, { cookie: options.cookie, origin: this.base });
    const startedAt = Date.now();
    try {
      const response = await fetch(`${this.base}${url}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(30_000),
      });
      return {
        status: response.status,
        body: await response.text(),
        headers: response.headers,
        startedAt,
        endedAt: Date.now(),
      };
    } catch (error) {
      throw new NoAnswer(startedAt, Date.now(), error);
    }
  }
}

/**
 * Signs in as Acme's owner and makes Acme an API token holding `permissions`: what the tests' merchant platform
 * sends with (the owner's session cookie comes along).
 */
export async function acmeApiToken(
  api: ApiClient,
  name: string,
  permissions: Permission[],
): Promise<{ storeId: string; token: string; cookie: string }> {
  const login = await api.call('POST', '/api/auth/login', {
    body: { email: 'owner@acme.test', password: 'demo-pass-1234' },
  });
  if (login.status !== 200) throw new Error(`signing in answered ${login.status}: ${login.body}`);
  const cookie = String(login.headers.get('set-cookie')).split(';')[0]!;
  const { storeId } = WhitelabelSettings.parse(
    JSON.parse((await api.call('GET', '/api/whitelabel/settings?store=acme')).body),
  );
  const created = await api.call('POST', `/api/stores/${storeId}/api-tokens`, { cookie, body: { name, permissions } });
  if (created.status !== 201) throw new Error(`making the token answered ${created.status}: ${created.body}`);
  return { storeId, token: CreateApiTokenResponse.parse(JSON.parse(created.body)).token, cookie };
}

/**
 * Acme's integrator in a fault test: an API token holding `permissions` and a webhook endpoint for every event type at
 * `receiver` (started here). Answers the store, the token and the endpoint.
 */
export async function acmeIntegration(
  api: ApiClient,
  name: string,
  permissions: Permission[],
  receiver: WebhookReceiver,
): Promise<{ storeId: string; token: string; endpointId: string }> {
  const { storeId, token } = await acmeApiToken(api, name, permissions);
  const endpoint = await api.call('POST', '/api/v1/webhook-endpoints', {
    token,
    body: { url: await receiver.start() },
  });
  expect(endpoint.status, endpoint.body).toBe(201);
  return { storeId, token, endpointId: CreateWebhookEndpointResponse.parse(JSON.parse(endpoint.body)).id };
}

export type CommandKind = 'order' | 'filing' | 'message' | 'resolution';

/** A command the API acknowledged with a 2xx: it must be in the store whatever happened afterwards. */
export interface Acknowledged {
  kind: CommandKind;
  claimId?: string;
  messageId?: string;
  startedAt: number;
  /** When the answer came. */
  at: number;
}

export interface Failure {
  kind: CommandKind;
  status: number | null;
  body: string;
  startedAt: number;
  endedAt: number;
}

export interface LoadOptions {
  api: ApiClient;
  token: string;
  lanes: number;
  messagesPerClaim: number;
  /** Distinguishes the order numbers of one run from another's. */
  prefix: string;
  /** Each lane's pause between two shoppers: a steady load the two cores keep up with, not a flood. */
  pauseMs: number;
}

/** The lanes' record: every acknowledged command, every failure, every request without an answer. */
export class Load {
  readonly acknowledged: Acknowledged[] = [];
  readonly failures: Failure[] = [];
  readonly noAnswers: NoAnswer[] = [];
  private stopping = false;
  private next = 0;
  private lanes: Promise<void>[] = [];

  constructor(private readonly options: LoadOptions) {}

  start(): void {
    this.lanes = Array.from({ length: this.options.lanes }, () => this.lane());
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.lanes);
  }

  private async lane(): Promise<void> {
    while (!this.stopping) {
      await this.scenario(`${this.options.prefix}${String(this.next++).padStart(5, '0')}`);
      await new Promise((resolve) => setTimeout(resolve, this.options.pauseMs));
    }
  }

  /** One shopper's story, cut short by a step that got no answer or a failure. */
  private async scenario(orderNumber: string): Promise<void> {
    const { api, token } = this.options;
    const sourceOrderId = `chaos-${orderNumber}`;
    if (
      !(await this.step('order', () =>
        api.call('PUT', `/api/v1/orders/${sourceOrderId}`, { body: orderBody(orderNumber), token }),
      ))
    )
      return;
    const filed = await this.step(
      'filing',
      () => api.call('POST', `/api/claims/${sourceOrderId}`, { body: filingBody(orderNumber) }),
      (body) => {
        const { claimId } = FileClaimResponse.parse(JSON.parse(body));
        return { claimId };
      },
    );
    if (!filed) return;
    const { token: claimToken } = FileClaimResponse.parse(JSON.parse(filed.body));
    for (let i = 1; i <= this.options.messagesPerClaim; i++) {
      const sent = await this.step(
        'message',
        () => api.call('POST', `/api/claims/${claimToken}/messages`, { body: { messageContent: `update ${i}` } }),
        (body) => ({
          claimId: filed.claimId,
          messageId: Message.parse(JSON.parse(body)).id,
        }),
      );
      if (!sent) return;
    }
    await this.step(
      'resolution',
      () =>
        api.call('POST', `/api/v1/claims/${filed.claimId}/resolve`, {
          body: { resolutionType: 'REFUND', reason: 'REFUND' },
          token,
        }),
      () => ({
        claimId: filed.claimId,
      }),
    );
  }

  private async step(
    kind: CommandKind,
    send: () => Promise<Answer>,
    identify: (body: string) => Omit<Acknowledged, 'kind' | 'at' | 'startedAt'> = () => ({}),
  ): Promise<(Acknowledged & { body: string }) | null> {
    try {
      const answer = await send();
      if (answer.status >= 200 && answer.status < 300) {
        const acknowledged = { kind, ...identify(answer.body), startedAt: answer.startedAt, at: answer.endedAt };
        this.acknowledged.push(acknowledged);
        return { ...acknowledged, body: answer.body };
      }
      this.failures.push({
        kind,
        status: answer.status,
        body: answer.body.slice(0, 300),
        startedAt: answer.startedAt,
        endedAt: answer.endedAt,
      });
      return null;
    } catch (error) {
      if (!(error instanceof NoAnswer)) throw error;
      this.noAnswers.push(error);
      return null;
    }
  }
}
