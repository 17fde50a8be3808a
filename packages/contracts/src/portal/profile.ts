import { z } from 'zod';
import { preferredLanguageSchema } from '../admin/users.js';
import { idSchema, listPage } from '../list.js';
import { defineRoute, type RouteContract } from '../route.js';

/** The self-service calls' answer when all went well. */
export const profileSuccessSchema = z.object({ success: z.boolean(), errors: z.array(z.string()) });
export type ProfileSuccess = z.output<typeof profileSuccessSchema>;

/** "Change password": the reset link went out, with the text to show. */
export const passwordResetSentSchema = profileSuccessSchema.extend({ message: z.string() });
export type PasswordResetSent = z.output<typeof passwordResetSentSchema>;

/** Adding an authenticator: the current password, needed only long after signing in. */
export const totpEnrolmentBodySchema = z.object({ password: z.string().min(1).max(1024).optional() }).strict();
export type TotpEnrolmentBody = z.input<typeof totpEnrolmentBodySchema>;

/** A new authenticator's secret and the otpauth URI its QR code shows. */
export const totpEnrolmentSchema = z.object({ secret: z.string(), otpauthUri: z.string() });
export type TotpEnrolment = z.output<typeof totpEnrolmentSchema>;

/** A six-digit code of the authenticator app. */
export const totpCodeBodySchema = z.object({ code: z.string().trim().regex(/^\d{6}$/) });
export type TotpCodeBody = z.input<typeof totpCodeBodySchema>;

/** A tenant the user belongs to, as the company selection lists it. */
export const companySchema = z.object({ id: z.string(), title: z.string() });
export type Company = z.output<typeof companySchema>;

/** The signed-in user's own profile ("Your Profile"), with what the portal's shell needs of it. */
export const myProfileSchema = z.object({
  id: z.string(),
  userName: z.string(),
  /** Read-only here: the login name and the e-mail are changed by an administrator. */
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  language: z.string(),
  areaName: z.string().nullable(),
  /** The picture's address: `/api/v1/avatar/{SHA-256 of the trimmed, lower-cased e-mail}` (a default picture when there is none). */
  avatarUrl: z.string(),
  /** The user's roles in the identity application (Administrator, IdentityConsultant, ServiceManager…), which decide the menu. */
  roles: z.array(z.string()),
  /** The company the user works for now: the one chosen, else the only one; null when there is none to pick or none picked. */
  currentCompany: companySchema.nullable(),
  /** How many companies (tenants) the user belongs to: "Change company" is offered from two. */
  companyCount: z.number().int().min(0),
});
export type MyProfile = z.output<typeof myProfileSchema>;

const name = z.string().trim().min(1).max(100);

/** Body of `PUT /api/v1/profile`: only these three can be changed by the user; any other field is refused. */
export const profileChangesSchema = z.strictObject({
  firstName: name,
  lastName: name,
  language: preferredLanguageSchema,
});
export type ProfileChanges = z.input<typeof profileChangesSchema>;

/** The spec's message for each missing field of the profile form. */
export const PROFILE_REQUIRED = {
  firstName: 'users.first_name_required',
  lastName: 'users.last_name_required',
  language: 'users.language_required',
} as const;

/** The most companies one call lists. */
export const COMPANIES_MAX_TAKE = 1000;

/** The tenant selector's query: `searchQuery` in the title, `skip` (0) and `take` (10); always by title ascending. */
export const companiesQuerySchema = z.object({
  searchQuery: z.string().trim().max(200).optional(),
  skip: z.coerce.number().int().min(0).max(10_000_000).default(0),
  take: z.coerce.number().int().min(1).max(COMPANIES_MAX_TAKE).default(10),
});
export type CompaniesQuery = z.input<typeof companiesQuerySchema>;

export const companiesPageSchema = listPage(companySchema);
export type CompaniesPage = z.output<typeof companiesPageSchema>;

/** Body of `PUT /api/v1/profile/currentCompany`. */
export const currentCompanyBodySchema = z.strictObject({ tenantId: idSchema });
export type CurrentCompanyBody = z.input<typeof currentCompanyBodySchema>;

/** `/api/v1/profile/*`: what a signed-in user does for themself, with a token issued to the portal. */
export const profileRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/profile',
    endpoint: 'profile.get',
    access: 'signed-in',
    summary: "The signed-in user's profile: names, e-mail, preferred language, area, picture, identity roles and current company",
    response: myProfileSchema,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/v1/profile',
    endpoint: 'profile.update',
    access: 'signed-in',
    summary: "Changes the signed-in user's first name, last name and preferred language (the language of later mails); answers the updated profile",
    body: profileChangesSchema,
    required: PROFILE_REQUIRED,
    response: myProfileSchema,
  }),
  tenants: defineRoute({
    method: 'GET',
    path: '/api/v1/profile/tenants',
    endpoint: 'profile.tenants',
    access: 'signed-in',
    summary:
      "The companies (tenants) the signed-in user belongs to, directly or through a group, and those below an inheritable membership; by title ascending, the Global tenant never",
    query: companiesQuerySchema,
    response: companiesPageSchema,
  }),
  setCurrentCompany: defineRoute({
    method: 'PUT',
    path: '/api/v1/profile/currentCompany',
    endpoint: 'profile.setCurrentCompany',
    access: 'signed-in',
    summary:
      "Makes one of the signed-in user's companies the current one, sent as the `current_company` claim to applications asking for the `company` scope; another tenant: 404",
    body: currentCompanyBodySchema,
    response: companySchema,
  }),
  resetPassword: defineRoute({
    method: 'GET',
    path: '/api/v1/profile/resetPassword/:name',
    endpoint: 'profile.resetPassword',
    access: 'signed-in',
    summary: 'Mails the signed-in user (who must be `name`) a password reset link',
    params: z.object({ name: z.string() }),
    response: passwordResetSentSchema,
  }),
  enrolTotp: defineRoute({
    method: 'POST',
    path: '/api/v1/profile/totp',
    endpoint: 'profile.enrolTotp',
    access: 'signed-in',
    summary: 'Starts adding an authenticator app: within ten minutes of signing in, or with the password',
    body: totpEnrolmentBodySchema,
    response: totpEnrolmentSchema,
  }),
  confirmTotp: defineRoute({
    method: 'POST',
    path: '/api/v1/profile/totp/confirm',
    endpoint: 'profile.confirmTotp',
    access: 'signed-in',
    summary: "Confirms the authenticator app with a first code; it is then the second factor",
    body: totpCodeBodySchema,
    response: profileSuccessSchema,
  }),
  disableTotp: defineRoute({
    method: 'POST',
    path: '/api/v1/profile/totp/disable',
    endpoint: 'profile.disableTotp',
    access: 'signed-in',
    summary: 'Removes the authenticator app, proven with one of its codes',
    body: totpCodeBodySchema,
    response: profileSuccessSchema,
  }),
} satisfies Record<string, RouteContract>;
