import { field } from '@svc/http';

/** A customer's label (trimmed), on the customer and on its API keys. */
export const labelField = field.string({ trim: true, min: 1, max: 100 });
