/** The response envelope of spec §2. */
export type SuccessEnvelope<T> = { success: true; data: T | null };
export type ErrorEnvelope = { success: false; code: string; msg: string };
export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;

export function success<T>(data: T | null | undefined): SuccessEnvelope<T> {
  return { success: true, data: data ?? null };
}

export function failure(code: string, msg: string): ErrorEnvelope {
  return { success: false, code, msg };
}
