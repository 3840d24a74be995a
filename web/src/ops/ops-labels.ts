import type { AccountStatus, Approval, ComplaintCategory, ComplaintStatus, LiveDriverState, Role, ZoneView } from '../api/types.ts';

// Words for the operator API's closed lists, keyed by the server's types (see ../ui/labels.ts).

export const ROLE_LABELS: Record<Role, string> = { USER: 'Rider', RIDER: 'Rider (RIDER)', DRIVER: 'Driver', ADMIN: 'Operator' };

export const LIVE_STATE_LABELS: Record<LiveDriverState, string> = {
  available: 'Available',
  busy: 'On a ride',
  not_cleared: 'Not cleared for offers',
};

export const ACCOUNT_STATUS_LABELS: Record<AccountStatus, string> = { active: 'Active', blocked: 'Blocked', deleted: 'Erased' };

export const APPROVAL_LABELS: Record<Approval, string> = { pending: 'Waiting for approval', approved: 'Approved', rejected: 'Rejected' };

export const COMPLAINT_STATUS_LABELS: Record<ComplaintStatus, string> = { open: 'Open', resolved: 'Resolved' };

export const COMPLAINT_CATEGORY_LABELS: Record<ComplaintCategory, string> = {
  safety: 'Safety',
  behaviour: 'Behaviour',
  fare: 'Fare',
  payment: 'Payment',
  route: 'Route',
  vehicle: 'Vehicle',
  lost_item: 'Lost item',
  app: 'App',
  other: 'Other',
};

export const INTENSITY_LABELS: Record<ZoneView['intensity'], string> = { NORMAL: 'normal', MODERATE: 'moderate', HIGH: 'high', SEVERE: 'severe' };
