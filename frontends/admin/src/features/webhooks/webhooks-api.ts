import type {
  BodyOf,
  ResponseOf,
  SavedWebhook,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEventType,
  WebhookSecret,
  webhooksRoutes,
} from '@gatehouse/contracts';
import { pathOf } from '@gatehouse/contracts';
import { adminApi, toQueryString } from '../../api/admin-api';

export type { SavedWebhook, Webhook, WebhookDelivery, WebhookDeliveryStatus, WebhookEventType, WebhookSecret };

type Routes = typeof webhooksRoutes;

/** What the New endpoint dialog sends. */
export type NewWebhook = BodyOf<Routes['create']>;
/** What an endpoint's Settings form sends (its application stays as created). */
export type WebhookChanges = BodyOf<Routes['update']>;
/** A page of an endpoint's delivery log (the contract's `top`, `skip` and `orderBy`), of one status when given. */
export type DeliveriesQuery = {
  top: number;
  skip: number;
  orderBy: 'createdAt desc' | 'createdAt asc';
  status?: WebhookDeliveryStatus;
};

// The contracts' paths, written out so that the bundle carries no schema; their types keep them equal.
const PATHS = {
  list: '/api/v1/admin/webhooks',
  one: '/api/v1/admin/webhooks/:id',
  rotateSecret: '/api/v1/admin/webhooks/:id/rotateSecret',
  deliveries: '/api/v1/admin/webhooks/:id/deliveries',
  resend: '/api/v1/admin/webhooks/:id/deliveries/:deliveryId/resend',
} as const satisfies Record<string, Routes[keyof Routes]['path']>;

const WEBHOOK_LIST_TAG = { type: 'Webhook' as const, id: 'LIST' };
const webhookTag = (id: string) => ({ type: 'Webhook' as const, id });
const deliveriesTag = (id: string) => ({ type: 'WebhookDelivery' as const, id });

export const webhooksApi = adminApi.enhanceEndpoints({ addTagTypes: ['Webhook', 'WebhookDelivery'] }).injectEndpoints({
  endpoints: (build) => ({
    webhooks: build.query<ResponseOf<Routes['list']>, void>({
      query: () => PATHS.list,
      providesTags: [WEBHOOK_LIST_TAG],
    }),
    webhook: build.query<ResponseOf<Routes['get']>, string>({
      query: (id) => pathOf({ path: PATHS.one }, { id }),
      providesTags: (_result, _error, id) => [webhookTag(id)],
    }),
    createWebhook: build.mutation<SavedWebhook, NewWebhook>({
      query: (body) => ({ url: PATHS.list, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : [WEBHOOK_LIST_TAG]),
    }),
    updateWebhook: build.mutation<Webhook, { id: string; changes: WebhookChanges }>({
      query: ({ id, changes }) => ({ url: pathOf({ path: PATHS.one }, { id }), method: 'PUT', body: changes }),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [WEBHOOK_LIST_TAG, webhookTag(id)]),
    }),
    deleteWebhook: build.mutation<void, string>({
      query: (id) => ({ url: pathOf({ path: PATHS.one }, { id }), method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [WEBHOOK_LIST_TAG]),
    }),
    rotateWebhookSecret: build.mutation<WebhookSecret, string>({
      query: (id) => ({ url: pathOf({ path: PATHS.rotateSecret }, { id }), method: 'POST' }),
      // The page shows until when the previous secret is still signed with.
      invalidatesTags: (_result, error, id) => (error ? [] : [webhookTag(id)]),
    }),
    webhookDeliveries: build.query<ResponseOf<Routes['deliveries']>, { id: string; query: DeliveriesQuery }>({
      query: ({ id, query }) => `${pathOf({ path: PATHS.deliveries }, { id })}${toQueryString(query)}`,
      providesTags: (_result, _error, { id }) => [deliveriesTag(id)],
    }),
    resendWebhookDelivery: build.mutation<WebhookDelivery, { id: string; deliveryId: string }>({
      query: ({ id, deliveryId }) => ({ url: pathOf({ path: PATHS.resend }, { id, deliveryId }), method: 'POST' }),
      // The log and the endpoint's pending and failed counts change.
      invalidatesTags: (_result, error, { id }) => (error ? [] : [deliveriesTag(id), webhookTag(id), WEBHOOK_LIST_TAG]),
    }),
  }),
});

export const {
  useWebhooksQuery,
  useWebhookQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useWebhookDeliveriesQuery,
  useResendWebhookDeliveryMutation,
} = webhooksApi;
