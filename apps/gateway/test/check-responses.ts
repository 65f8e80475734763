import { checkEveryResponse } from '@svc/http/testing';

// Every answer a route gives in this app's tests is checked against the route's declared schema and errors.
checkEveryResponse();
