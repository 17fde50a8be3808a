import type { ActiveTask, NOTIFICATION_HUB_EVENTS, NOTIFICATIONS_HUB_PATH, UserNotification } from '@gatehouse/contracts';
import { useEffect, useRef } from 'react';
import { productPath, type RequestAuthorization } from '@gatehouse/frontend-shared';
import { io } from 'socket.io-client';
import { useAuth, useAuthUser } from '../../auth/auth-context';

// The contracts' names, written out so that the bundle carries no schema; their types keep them equal.
const HUB_PATH: typeof NOTIFICATIONS_HUB_PATH = '/hubs/notifications';
const EVENTS: typeof NOTIFICATION_HUB_EVENTS = { beginConnection: 'BeginConnection', newNotification: 'NewNotification', newProcess: 'NewProcess' };

/** After the hub drops the connection (its token expired, the node stops), the console comes back after this. */
export const RECONNECT_DELAY_MS = 1000;

export interface HubHandlers {
  /** A notification for the signed-in user. */
  onNotification(notification: UserNotification): void;
  /** One of the user's background processes started or moved on. */
  onProcess(task: ActiveTask): void;
  /** The hub accepted the connection (again): what was missed meanwhile is in the lists. */
  onConnected(): void;
}

/**
 * The URL a handshake's DPoP proof names (`htu`, with `htm` GET): the hub's address on the
 * console's origin as the websocket request asks for it (engine.io adds the trailing slash).
 */
function hubProofUrl(): string {
  return `${window.location.origin}${productPath(HUB_PATH)}/`;
}

/** The handshake's `auth`: the access token, and the DPoP proof when the token is sender-constrained. */
function handshakeAuth(authorization: RequestAuthorization | undefined): { token: string; dpop?: string } {
  if (!authorization) return { token: '' };
  const proof = authorization.headers.DPoP;
  return proof ? { token: authorization.token, dpop: proof } : { token: authorization.token };
}

/**
 * The live connection to the notification hub (spec 7), on the console's own origin, for as long as
 * the console is signed in. The access token goes in the handshake with a fresh DPoP proof, both
 * made afresh at each (re)connection; a renewed token opens a new connection. A connection failure
 * is only logged.
 */
export function useNotificationHub(handlers: HubHandlers): void {
  const auth = useAuth();
  const token = useAuthUser()?.access_token;
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    if (!token) return undefined;
    const socket = io({
      path: productPath(HUB_PATH),
      // Long polling would need sticky sessions at the ingress: the hub offers websockets only.
      transports: ['websocket'],
      auth: (send) => {
        auth.authorize({ url: hubProofUrl(), method: 'GET' }).then(
          (authorization) => send(handshakeAuth(authorization)),
          () => send(handshakeAuth(undefined)),
        );
      },
    });
    let retry: ReturnType<typeof setTimeout> | undefined;
    socket.on(EVENTS.newNotification, (notification: UserNotification) => latest.current.onNotification(notification));
    socket.on(EVENTS.newProcess, (task: ActiveTask) => latest.current.onProcess(task));
    socket.on(EVENTS.beginConnection, () => latest.current.onConnected());
    socket.on('connect_error', (error: Error) => console.debug('notification hub: connection failed', error.message));
    socket.on('disconnect', (reason: string) => {
      // The client comes back by itself after a network failure, not after the server ended the connection.
      if (reason === 'io server disconnect') retry = setTimeout(() => socket.connect(), RECONNECT_DELAY_MS);
    });
    return () => {
      clearTimeout(retry);
      socket.off();
      socket.disconnect();
    };
  }, [auth, token]);
}
