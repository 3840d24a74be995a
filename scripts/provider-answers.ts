import type { ServerResponse } from 'node:http';
import type { CheckoutResult } from './provider-stand-in.ts';

// How the provider stand-in answers: JSON as Razorpay's APIs do, HTML pages, a script.

export interface Answer {
  /** 0: drop the connection unanswered. */
  status: number;
  body?: unknown;
  html?: string;
  script?: string;
  /** Called from the app's page, another origin (the checkout script's calls). */
  cors?: boolean;
}

// Any page may call the checkout's endpoints, as any shop's page may open Razorpay's checkout; no cookies are involved.
const CORS = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type' };

/** Razorpay's error body for a request it refuses. */
export const badRequest = (description: string): Answer => ({ status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description } } });

/** A paid checkout as Razorpay's checkout hands it to the app: what the app sends to /payments/verify. */
export const checkoutSuccess = (paid: CheckoutResult): Answer => ({
  status: 200,
  body: { razorpay_order_id: paid.orderId, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature },
});

export function send(response: ServerResponse, answer: Answer): void {
  if (answer.status === 0) return void response.destroy();
  if (answer.html !== undefined) return void response.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' }).end(answer.html);
  if (answer.script !== undefined) return void response.writeHead(answer.status, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }).end(answer.script);
  const cors = answer.cors ? CORS : {};
  if (answer.body === undefined) return void response.writeHead(answer.status, cors).end();
  response.writeHead(answer.status, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
}
