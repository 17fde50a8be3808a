/** Who sees My Clients, and who sees Service Manager (spec 2, menu). */
export const CLIENTS_ROLES = ['Administrator', 'IdentityConsultant'] as const;
export const SERVICE_MANAGER_ROLES = ['ServiceManager'] as const;
