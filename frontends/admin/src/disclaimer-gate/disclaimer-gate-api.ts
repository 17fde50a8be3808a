import type { DisclaimerGate, disclaimersRoutes } from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { adminApi } from '../api/admin-api';

export type { DisclaimerGate };

// The contract's path, written out so that the bundle carries no schema; its type keeps them equal.
const GATE: typeof disclaimersRoutes.gate.path = '/api/v1/profile/disclaimer/:userId/:applicationName';

/** Whose acceptance of which application's disclaimer the gate is asked about. */
export interface GateTarget {
  userId: string;
  /** The application's client_id. */
  applicationName: string;
}

/** The disclaimer gate on the identity host (same origin), asked with the console's own token. */
export const disclaimerGateApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    disclaimerGate: build.query<DisclaimerGate, GateTarget>({
      query: (target) => pathOf({ path: GATE }, { ...target }),
    }),
    // The spec's call: a POST to the same path, with an empty body.
    acceptDisclaimerGate: build.mutation<DisclaimerGate, GateTarget>({
      query: (target) => ({ url: pathOf({ path: GATE }, { ...target }), method: 'POST' }),
    }),
  }),
});

export const { useDisclaimerGateQuery, useAcceptDisclaimerGateMutation } = disclaimerGateApi;
