import { type AppContext } from '@gatehouse/core';
import { basePathOf, sameOriginPath } from '@gatehouse/core/http';
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import type { ProviderHost } from '../../oidc/provider-host.js';
import { Refused, refusal } from './refusal.js';
import type { InteractionLogin, SignInSource } from './sign-in-state.js';

/** An interaction as the provider keeps it. */
export type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** Only same-origin paths are followed after sign-in; anything else falls back to home. */
export function safeReturnUrl(context: AppContext, returnUrl: string | null | undefined): string | undefined {
  return sameOriginPath(returnUrl, context.config.server.publicUrl);
}

/** The portal's home, under the base path of the public URL. */
export function homePath(context: AppContext): string {
  return `${basePathOf(context.config.server.publicUrl)}/`;
}

/**
 * The provider interaction bound to this browser by its cookie, loaded at most once per request,
 * and the one way a request finds it gone: the "expired" refusal, which sends the page home (or to
 * its same-origin return address).
 */
export class InteractionAccess {
  private loaded: Promise<Interaction | undefined> | undefined;

  constructor(
    private readonly context: AppContext,
    private readonly host: ProviderHost,
    private readonly ctx: Context,
  ) {}

  /** The interaction in progress, or undefined when there is none. */
  find(): Promise<Interaction | undefined> {
    this.loaded ??= this.host.current.interactionDetails(this.ctx.req, this.ctx.res).catch(() => undefined);
    return this.loaded;
  }

  /** The interaction in progress when it is the one asked for; else the "expired" refusal is thrown. */
  async require(accepts: (interaction: Interaction) => boolean = () => true, returnUrl?: string | null): Promise<Interaction> {
    const interaction = await this.find();
    if (interaction && accepts(interaction)) return interaction;
    throw new Refused({ ...refusal(400, 'account.interaction_expired'), redirectTo: safeReturnUrl(this.context, returnUrl) ?? homePath(this.context) });
  }

  /**
   * Finishes the interaction for a signed-in user; answers where the browser continues. As the
   * provider's interactionResult does, without reading the interaction a second time: this request
   * has it already.
   */
  resume = async (login: InteractionLogin): Promise<string> => {
    const interaction = await this.require();
    interaction.result = { login: { ...login } };
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    return interaction.returnTo;
  };

  /** Ends the interaction with an OAuth error for the application (the user cancelled or refused). */
  deny(description: string): Promise<string> {
    return this.host.current.interactionResult(this.ctx.req, this.ctx.res, { error: 'access_denied', error_description: description });
  }

  /** Finishes a consent with the grant it saved. */
  consented(grantId: string): Promise<string> {
    return this.host.current.interactionResult(this.ctx.req, this.ctx.res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  /** Where an attempt in this interaction comes from: the return address, the application, the caller. */
  async sourceOf(interaction: Interaction, returnUrl: string | null | undefined): Promise<SignInSource> {
    const client = await this.host.registry.find(String(interaction.params.client_id));
    const { ctx } = this;
    return { returnUrl: returnUrl ?? String(interaction.params.redirect_uri ?? ''), applicationName: client?.name, ip: ctx.ip, userAgent: ctx.get('user-agent') };
  }

  /** The provider, for its grants. */
  get provider(): Provider {
    return this.host.current;
  }
}
