export const ROLES = ['USER', 'RIDER', 'DRIVER', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling, as proven by a verified access token. */
export interface AuthUser {
  id: number;
  role: Role;
}

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** USER and RIDER are both riders; ADMIN may do anything. */
export const RIDER_ROLES: readonly Role[] = ['USER', 'RIDER', 'ADMIN'];
export const DRIVER_ROLES: readonly Role[] = ['DRIVER', 'ADMIN'];

/** Route config of every operator route (/admin): test/modules/admin checks all of them against the OpenAPI document. */
export const ADMIN_ONLY = { roles: ['ADMIN'] } as const satisfies { roles: readonly Role[] };

export const isAdmin = (user: AuthUser): boolean => user.role === 'ADMIN';
