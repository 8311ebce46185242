import { createHmac } from 'node:crypto';

import { InvalidInputError } from '@app/common';
import { type FastifyReply } from 'fastify';
import { Registry } from 'prom-client';

import { strictDouble } from '../../test/support/doubles';
import { type AppConfig } from '../config/app-config';
import { type MetricsService } from '../metrics/metrics.service';
import { type WebhookInbox } from '../relational/webhook-inbox';
import { WebhookMetrics } from './webhook-metrics';
import { type WebhookProcessor } from './webhook-processor';
import { type WebhookWorker } from './webhook-worker';
import { WebhooksController } from './webhooks.controller';

const SECRET = 'whsec-unit';

const delivery = (envelope: unknown, secret = SECRET, ts = Date.now()) => {
  const raw = JSON.stringify(envelope);
  const timestamp = String(ts);
  return {
    raw: Buffer.from(raw),
    timestamp,
    signature: createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex'),
  };
};

const event = (type: string, uid = 'evt-1') => ({
  data: { before: null, after: { uid: 'ctc-1' }, errors: [] },
  metadata: { event_type: type, event_uid: uid, version: '2021.04.01' },
});

describe('WebhooksController', () => {
  let insert: jest.Mock;
  let kick: jest.Mock;
  let status: jest.Mock;
  let invalidateOnArrival: jest.Mock;
  let refuseOnArrival: jest.Mock;
  let registry: Registry;

  const build = (webhookSecret?: string, webhookToleranceMs = 5 * 60_000) => {
    insert = jest.fn();
    kick = jest.fn();
    status = jest.fn();
    invalidateOnArrival = jest.fn().mockResolvedValue(undefined);
    refuseOnArrival = jest.fn();
    registry = new Registry();
    return new WebhooksController(
      { webhooks: { secret: webhookSecret, toleranceMs: webhookToleranceMs } } as AppConfig,
      strictDouble<WebhookInbox>({ ready: true, insert }),
      strictDouble<WebhookWorker>({ kick }),
      new WebhookMetrics({ registry } as MetricsService),
      strictDouble<WebhookProcessor>({ invalidateOnArrival, refuseOnArrival }),
    );
  };
  const reply = () => strictDouble<FastifyReply>({ status });
  const outcomes = async () =>
    (await registry.getSingleMetric('context_bridge_webhook_deliveries_total')!.get()).values.map(
      (v) => `${v.labels.outcome}=${v.value}`,
    );

  it('refuses every delivery when no secret is configured, even a well-formed one', async () => {
    const sut = build(undefined);
    const d = delivery(event('contact.updated'));
    await expect(sut.podium(d.raw, d.timestamp, d.signature, reply())).rejects.toMatchObject({
      code: 'webhooks_not_configured',
      httpStatus: 503,
    });
    expect(insert).not.toHaveBeenCalled();
    expect(await outcomes()).toEqual(['not_configured=1']);
  });

  it.each([
    [
      'a wrong secret',
      () => delivery(event('contact.updated'), 'other'),
      'webhook_signature_invalid',
    ],
    [
      'no signature',
      () => ({ ...delivery(event('contact.updated')), signature: undefined }),
      'webhook_signature_missing',
    ],
    [
      'an old capture',
      () => delivery(event('contact.updated'), SECRET, Date.now() - 3_600_000),
      'webhook_timestamp_stale',
    ],
  ])('answers 401 for %s and stores nothing', async (_label, make, code) => {
    const sut = build(SECRET);
    const d = make();
    await expect(sut.podium(d.raw, d.timestamp, d.signature, reply())).rejects.toMatchObject({
      code,
      httpStatus: 401,
    });
    expect(insert).not.toHaveBeenCalled();
    expect(kick).not.toHaveBeenCalled();
  });

  it('reads the replay window from PODIUM_WEBHOOK_TOLERANCE_MS', async () => {
    const d = delivery(event('contact.updated'), SECRET, Date.now() - 7 * 60_000);
    await expect(
      build(SECRET, 5 * 60_000).podium(d.raw, d.timestamp, d.signature, reply()),
    ).rejects.toMatchObject({ code: 'webhook_timestamp_stale' });
    const wide = build(SECRET, 10 * 60_000);
    insert.mockResolvedValue(true);
    await expect(wide.podium(d.raw, d.timestamp, d.signature, reply())).resolves.toMatchObject({
      received: true,
      duplicate: false,
    });
    const early = delivery(event('contact.updated'), SECRET, Date.now() + 2 * 60_000);
    await expect(
      build(SECRET, 60_000).podium(early.raw, early.timestamp, early.signature, reply()),
    ).rejects.toMatchObject({ code: 'webhook_timestamp_stale' });
  });

  it('stores a new event, wakes the worker and answers 202', async () => {
    const sut = build(SECRET);
    insert.mockResolvedValue(true);
    const d = delivery(event('contact.updated', 'evt-42'));
    await expect(sut.podium(d.raw, d.timestamp, d.signature, reply())).resolves.toEqual({
      received: true,
      event_id: 'evt-42',
      duplicate: false,
    });
    expect(insert).toHaveBeenCalledWith(
      'evt-42',
      'contact.updated',
      event('contact.updated', 'evt-42'),
    );
    expect(status).toHaveBeenCalledWith(202);
    expect(kick).toHaveBeenCalledTimes(1);
  });

  it('stores a contact event, then drops the cached contact before it acknowledges it', async () => {
    const sut = build(SECRET);
    insert.mockResolvedValue(true);
    const d = delivery(event('contact.deleted', 'evt-7'));
    await sut.podium(d.raw, d.timestamp, d.signature, reply());
    expect(invalidateOnArrival).toHaveBeenCalledWith(
      'contact.deleted',
      event('contact.deleted', 'evt-7'),
    );
    expect(insert.mock.invocationCallOrder[0]).toBeLessThan(
      invalidateOnArrival.mock.invocationCallOrder[0],
    );
  });

  it('stores and acknowledges a contact event while the cache is down (a delete never waits on it)', async () => {
    const sut = build(SECRET);
    insert.mockResolvedValue(true);
    invalidateOnArrival.mockRejectedValueOnce(new Error('redis down'));
    const d = delivery(event('contact.deleted', 'evt-8'));
    await expect(sut.podium(d.raw, d.timestamp, d.signature, reply())).resolves.toMatchObject({
      received: true,
      event_id: 'evt-8',
      duplicate: false,
    });
    expect(insert).toHaveBeenCalledTimes(1);
  });

  it('refuses a delivery the processor refuses on arrival (a message dated in the future) and stores nothing (old: stored, retried, dead-lettered)', async () => {
    const sut = build(SECRET);
    refuseOnArrival.mockImplementation(() => {
      throw new InvalidInputError('occurred_at_in_future', 'too far ahead');
    });
    const d = delivery(event('message.received', 'evt-9'));
    await expect(sut.podium(d.raw, d.timestamp, d.signature, reply())).rejects.toMatchObject({
      code: 'occurred_at_in_future',
      httpStatus: 400,
    });
    expect(refuseOnArrival).toHaveBeenCalledWith(
      'message.received',
      event('message.received', 'evt-9'),
    );
    expect(insert).not.toHaveBeenCalled();
    expect(kick).not.toHaveBeenCalled();
    expect(await outcomes()).toEqual(['invalid=1']);
  });

  it('answers a redelivery 200 as a duplicate without waking the worker', async () => {
    const sut = build(SECRET);
    insert.mockResolvedValue(false);
    const d = delivery(event('contact.updated'));
    await expect(sut.podium(d.raw, d.timestamp, d.signature, reply())).resolves.toMatchObject({
      duplicate: true,
    });
    expect(status).not.toHaveBeenCalled();
    expect(kick).not.toHaveBeenCalled();
  });

  it('acknowledges event types it does not act on without storing them', async () => {
    const sut = build(SECRET);
    const d = delivery(event('review.created'));
    await expect(sut.podium(d.raw, d.timestamp, d.signature, reply())).resolves.toEqual({
      received: true,
      ignored: true,
    });
    expect(insert).not.toHaveBeenCalled();
  });

  it('rejects a signed body that is not a Podium envelope with 400', async () => {
    const sut = build(SECRET);
    const d = delivery({ hello: 'world' });
    await expect(sut.podium(d.raw, d.timestamp, d.signature, reply())).rejects.toMatchObject({
      code: 'invalid_webhook_payload',
      httpStatus: 400,
    });
    expect(insert).not.toHaveBeenCalled();
  });
});
