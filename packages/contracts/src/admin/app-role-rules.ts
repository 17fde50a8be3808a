// Plain values (no zod), so that the console's bundle can import them without the schemas.

/**
 * What a role scope may be made of (spec: "lowercase letters, numbers and only . / : _ - allowed").
 * The database's `role_scopes__scope__check` and the bootstrap file hold the same rule.
 */
export const ROLE_SCOPE_PATTERN = /^[a-z0-9./:_-]+$/;

/** A role's scopes and names are bounded by their columns. */
export const ROLE_NAME_MAX = 200;
export const ROLE_DESCRIPTION_MAX = 1000;
export const ROLE_SCOPE_MAX = 200;

