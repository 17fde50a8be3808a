import type { InteractionDetails } from '@gatehouse/contracts';
import type { ClientRegistry } from '../../oidc/clients.js';
import type { SessionImpersonations } from '../identify-as/session-impersonations.js';
import type { Interaction, InteractionAccess } from './interaction.js';

/**
 * What a consent is asked for, read once from the prompt: the page lists exactly this and
 * "Allow" grants exactly this (OIDC scopes and claims, and every resource's scopes).
 */
function consentRequest(details: unknown) {
  const asked = details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  return {
    scopes: asked.missingOIDCScope ?? [],
    claims: asked.missingOIDCClaims ?? [],
    resourceScopes: Object.entries(asked.missingResourceScopes ?? {}).map(([resource, scopes]) => ({ resource, scopes })),
  };
}

/** What the page must show for the interaction in progress: sign-in or consent, and for which application. */
export async function describeInteraction(registry: ClientRegistry, interaction: Interaction): Promise<InteractionDetails> {
  const client = await registry.find(String(interaction.params.client_id));
  const asked = consentRequest(interaction.prompt.details);
  return {
    uid: interaction.uid,
    prompt: interaction.prompt.name as InteractionDetails['prompt'],
    client: client ? { clientId: client.name, displayName: client.displayName, firstParty: client.isFirstParty } : null,
    scopes: String(interaction.params.scope ?? '').split(' ').filter(Boolean),
    missingScopes: asked.scopes,
    missingClaims: asked.claims,
    resourceScopes: asked.resourceScopes,
    loginHint: (interaction.params.login_hint as string | undefined) ?? null,
  };
}

/** A consent page's interaction: signed in, and (to approve) the very one the page showed. */
export const consentShown = (approve: boolean, shown: string | undefined) => (interaction: Interaction) =>
  interaction.prompt.name === 'consent' && Boolean(interaction.session?.accountId) && (!approve || shown === interaction.uid);

/**
 * The God user signed in as the user in the interaction's session (Identify As), if any: a consent
 * given in that session would not be the user's.
 */
export async function actorOfInteraction(impersonations: SessionImpersonations, interaction: Interaction): Promise<string | undefined> {
  return (await impersonations.ofSession(interaction.session?.uid))?.actorId;
}

/**
 * Answers a consent: approve grants what `/interaction` showed; refuse ends with access_denied.
 * Answers where the browser continues.
 */
export async function answerConsent(access: InteractionAccess, interaction: Interaction, approve: boolean): Promise<string> {
  if (!approve) return access.deny('End-User refused the requested access');
  const { provider } = access;
  const asked = consentRequest(interaction.prompt.details);
  const grant = interaction.grantId
    ? (await provider.Grant.find(interaction.grantId))!
    : new provider.Grant({ accountId: interaction.session!.accountId, clientId: String(interaction.params.client_id) });
  if (asked.scopes.length) grant.addOIDCScope(asked.scopes.join(' '));
  if (asked.claims.length) grant.addOIDCClaims(asked.claims);
  for (const { resource, scopes } of asked.resourceScopes) grant.addResourceScope(resource, scopes.join(' '));
  return access.consented(await grant.save());
}
