import { z } from 'zod';

/**
 * The error object of every host error answer: a stable `code`, a message saying what is wrong,
 * and more fields some errors carry (`hint`: what to do; `reason`, `seats`, `interval`, `file`...).
 */
export const wireErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  hint: z.string().exactOptional(),
});

/** The error object of an error answer (see {@link wireErrorSchema}). */
export type WireError = z.output<typeof wireErrorSchema>;

/** `{ ok: false, error }`: the one JSON error shape of every host route. */
export const errorEnvelopeSchema = z.object({ ok: z.literal(false), error: wireErrorSchema });

/** An error answer of the host. */
export type ErrorEnvelope = z.output<typeof errorEnvelopeSchema>;

/**
 * `{ ok: true, data }` with `data` checked by `data`.
 * @example okEnvelope(sourcesResponseSchema).parse(await response.json())
 */
export function okEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ ok: z.literal(true), data });
}

/** A success answer of the host carrying `T`. */
export interface OkEnvelope<T> {
  readonly ok: true;
  readonly data: T;
}

/** Either answer of a host route whose success carries `T`. */
export type Envelope<T> = OkEnvelope<T> | ErrorEnvelope;

/**
 * Either answer, `data` checked by `data`: what a client parses a host answer with.
 * @example envelope(z.unknown()).safeParse(JSON.parse(text))
 */
export function envelope<T extends z.ZodType>(data: T) {
  return z.discriminatedUnion('ok', [okEnvelope(data), errorEnvelopeSchema]);
}
