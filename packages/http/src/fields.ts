import type { Location, ValidationChain } from 'express-validator';
import type { Field, FieldStep, Message } from '@svc/contract';

/**
 * The field vocabulary lives in @svc/contract as data (browser-safe, shared with the SDK);
 * here each field becomes its express-validator chain.
 */
export { field, type Field, type Fields, type Message, type Presence, type StringOptions } from '@svc/contract';

const text = (message: Message, path: string) => (typeof message === 'string' ? message : message(path));

/** Adds a field's checks to an express-validator chain for its path: presence, JSON type (stops the chain), then its steps. */
export function buildChain(f: Field, chain: ValidationChain, location: Location): ValidationChain {
  if (f.presence === 'optional') chain.optional();
  else if (f.presence === 'nullable') chain.optional({ values: 'null' });
  else chain.exists().withMessage((_v, { path }) => f.missingMessage ?? `${path} is required`).bail();
  chain
    .custom((value) => f.isType(value, location as 'body' | 'query' | 'params'))
    .withMessage((_v, { path }) => text(f.typeMessage, path))
    .bail();
  for (const step of f.steps) applyStep(chain, step, location);
  return chain;
}

function applyStep(chain: ValidationChain, step: FieldStep, location: Location): void {
  switch (step.kind) {
    case 'check':
      chain
        .custom((value, { req }) => step.test(value, ((req.body ?? {}) as Record<string, unknown>)))
        .withMessage((_v, { path }) => text(step.message, path))
        .bail();
      return;
    case 'trim':
      chain.trim();
      return;
    case 'lowercase':
      chain.toLowerCase();
      return;
    case 'toInt':
      if (location !== 'body') chain.toInt();
      return;
    case 'email':
      chain.isEmail().withMessage((_v, { path }) => text(step.message, path));
      return;
    case 'httpUrl':
      chain.isURL({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }).withMessage((_v, { path }) => text(step.message, path));
      return;
  }
}
