import type { AccountStatus, Approval, ComplaintCategory, ComplaintStatus, DriverDocument, Incident, LiveDriverState, Role, ZoneView } from '../api/types.ts';
import { labelsOf } from '../i18n/i18n.ts';
import { every } from '../ui/labels.ts';

// Words for the operator API's closed lists, in the console's language (ops-en.ts's ops.role.*, …),
// keyed by the server's types (see ../ui/labels.ts).

export const ROLE_LABELS = labelsOf('ops.role.', every<Role>()(['USER', 'RIDER', 'DRIVER', 'ADMIN']));

export const LIVE_STATE_LABELS = labelsOf('ops.liveState.', every<LiveDriverState>()(['available', 'busy', 'not_cleared']));

export const ACCOUNT_STATUS_LABELS = labelsOf('ops.accountStatus.', every<AccountStatus>()(['active', 'blocked', 'deleted']));

export const APPROVAL_LABELS = labelsOf('ops.approval.', every<Approval>()(['pending', 'approved', 'rejected']));

export const COMPLAINT_STATUS_LABELS = labelsOf('ops.complaintStatus.', every<ComplaintStatus>()(['open', 'resolved']));

export const COMPLAINT_CATEGORY_LABELS = labelsOf(
  'ops.category.',
  every<ComplaintCategory>()(['safety', 'behaviour', 'fare', 'payment', 'route', 'vehicle', 'lost_item', 'app', 'other']),
);

export const INTENSITY_LABELS = labelsOf('ops.intensity.', every<ZoneView['intensity']>()(['NORMAL', 'MODERATE', 'HIGH', 'SEVERE']));

/** Who took part: a rider or a driver (an SOS, a complaint), or an operator (a cancellation). */
export const PARTY_LABELS = labelsOf('ops.party.', ['rider', 'driver', 'admin'] as const);

export const INCIDENT_STATUS_LABELS = labelsOf('ops.incidentStatus.', every<Incident['status']>()(['open', 'acknowledged', 'resolved']));

export const DOCUMENT_STATUS_LABELS = labelsOf('ops.documentStatus.', every<DriverDocument['status']>()(['pending', 'approved', 'rejected']));
