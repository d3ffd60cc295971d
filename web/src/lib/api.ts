// A small fetch wrapper for the server's JSON API. Error bodies are `{code, message, fields?}`
// (docs/architecture.md); any failure becomes an ApiError. A signed-in visitor's calls carry
// `Authorization: Bearer <access token>` from the auth client's current session; the client is
// imported only when a session is stored, so a visitor's catalogue calls never load it.
import type { ZodType } from './schema';
import { hasStoredSession } from './authSession';
import { currentMfaHandlers } from './mfaHandlers';
import { isSessionEndedAnswer, reportSessionEnded } from './sessionEnded';

/** The session's access token, or null without a stored session (no auth client is loaded then). */
async function accessToken(): Promise<string | null> {
  if (!hasStoredSession()) return null;
  const { getAccessToken } = await import('./authClient');
  return getAccessToken();
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  /** The answer's X-Request-Id (the server logs it with the failure), when there was an answer. */
  readonly requestId: string | null;

  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}, requestId: string | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.requestId = requestId;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Status 0: the request never got an HTTP answer (network failure or abort). */
export const NETWORK_ERROR_STATUS = 0;

interface RequestOptions<T = unknown> {
  /** Checks the answer's shape (zod): a mismatch is an ApiError `invalid_response`, not a crash later. */
  schema?: ZodType<T>;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Sent as it is (an upload), with the blob's own type as Content-Type; instead of `body`. */
  rawBody?: Blob;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Send the session's access token when there is one (default); false never sends it. */
  auth?: boolean;
}

export { setMfaHandlers, type MfaHandlers } from './mfaHandlers';

export const MFA_ENROLLMENT_REQUIRED = 'mfa_enrollment_required';
export const INSUFFICIENT_AAL = 'insufficient_aal';

/**
 * The one place that reacts to the server's refusals of the session: ended elsewhere
 * (lib/sessionEnded.ts) or a two-factor step (lib/mfaHandlers.ts); the error is thrown regardless.
 */
function handleRefusal(error: ApiError, sentToken: boolean): void {
  if (isSessionEndedAnswer(error.status, error.code, sentToken)) {
    reportSessionEnded();
    return;
  }
  handleMfaRefusal(error);
}

/** The server's two-factor refusals. */
function handleMfaRefusal(error: ApiError): void {
  const mfaHandlers = currentMfaHandlers();
  if (error.status !== 403 || !mfaHandlers) return;
  if (error.code === MFA_ENROLLMENT_REQUIRED) mfaHandlers.enrolmentRequired();
  else if (error.code === INSUFFICIENT_AAL) mfaHandlers.codeRequired();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readFields(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const fields: Record<string, string> = {};
  for (const [key, message] of Object.entries(value)) {
    if (typeof message === 'string') fields[key] = message;
  }
  return fields;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** The ApiError of a refusal: the body's code, message and fields, the answer's request id. */
function answerError(response: Response, body: unknown): ApiError {
  const code = isRecord(body) && typeof body.code === 'string' ? body.code : 'http_error';
  const message = isRecord(body) && typeof body.message === 'string' ? body.message : `Request failed with status ${String(response.status)}`;
  const fields = isRecord(body) ? readFields(body.fields) : {};
  return new ApiError(response.status, code, message, fields, response.headers.get(REQUEST_ID_HEADER));
}

/** The response header that names the request in the server's log (server/src/http/request_id.h). */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Sends a request to the API and returns the parsed JSON body; throws ApiError otherwise. */
export async function apiFetch<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const init: RequestInit = { method: options.method ?? 'GET', headers, credentials: 'same-origin' };
  if (options.signal) init.signal = options.signal;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  } else if (options.rawBody !== undefined) {
    headers['Content-Type'] = options.rawBody.type || 'application/octet-stream';
    init.body = options.rawBody;
  }
  let sentToken = false;
  if (options.auth !== false) {
    const token = await accessToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    sentToken = token !== null;
  }

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(NETWORK_ERROR_STATUS, 'network_error', 'The server could not be reached.');
  }

  const body = await readJson(response);
  if (!response.ok) {
    const error = answerError(response, body);
    handleRefusal(error, sentToken);
    throw error;
  }
  if (!options.schema) return body as T;
  const parsed = options.schema.safeParse(body);
  if (!parsed.success) {
    console.error(`Unexpected answer from ${path}`, parsed.error.issues);
    throw new ApiError(response.status, INVALID_RESPONSE, 'The server sent an answer this page does not understand. Please reload.', {}, response.headers.get(REQUEST_ID_HEADER));
  }
  return parsed.data;
}

export const INVALID_RESPONSE = 'invalid_response';

/** A file the API answers (a CSV export): its bytes and the name its Content-Disposition gives. */
export interface Download {
  blob: Blob;
  filename: string;
}

/** The filename of `attachment; filename="orders-2026-11-27.csv"`, or `fallback`. */
export function dispositionFilename(header: string | null, fallback: string): string {
  const match = header ? /filename="([^"]+)"/.exec(header) : null;
  return match?.[1] ?? fallback;
}

/** GETs a file with the session's token (a link cannot send it); errors as apiFetch's. */
export async function apiDownload(path: string, fallbackName: string): Promise<Download> {
  const headers: Record<string, string> = { Accept: 'text/csv, application/json' };
  const token = await accessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, { method: 'GET', headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(NETWORK_ERROR_STATUS, 'network_error', 'The server could not be reached.');
  }
  if (!response.ok) {
    const error = answerError(response, await readJson(response));
    handleRefusal(error, token !== null);
    throw error;
  }
  return { blob: await response.blob(), filename: dispositionFilename(response.headers.get('Content-Disposition'), fallbackName) };
}

/** A failure as a sentence for the page: the server's message, else the error's, else `fallback`. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (!(error instanceof Error)) return fallback;
  // The auth library sometimes carries an empty or "{}" message: say the fallback instead.
  const message = error.message.trim();
  return message && message !== '{}' ? message : fallback;
}
