import { checkEveryResponse } from '@svc/http/testing';

// The end-to-end tests run the services in this process: every answer their routes give is
// checked against the route's declared schema and errors.
checkEveryResponse();
