import { Type, type Static } from 'typebox';
import { LANGUAGES, PAYMENT_MODES, RIDE_TYPES, type PaymentMode } from '../../platform/vocabulary.ts';

/** The payment modes, spelled in lower case as the contract shows settings (`upi`, `card`). */
export const PAYMENT_METHODS = PAYMENT_MODES.map((mode) => mode.toLowerCase() as Lowercase<PaymentMode>);
export const MAP_STYLES = ['standard', 'satellite', 'terrain', 'dark'] as const;
export const AC_PREFERENCES = ['any', 'ac', 'non_ac'] as const;

const fields = {
  tripSharingDefault: Type.Boolean(),
  hidePhoneNumber: Type.Boolean(),
  emergencyContact: Type.String({ maxLength: 40, pattern: '^[^\\u0000-\\u001f]*$', description: "An e-mail address or a phone number: an SOS sends it the trip's sharing link (a name alone reaches nobody)" }),
  defaultPaymentMethod: Type.Enum(PAYMENT_METHODS),
  autoTipEnabled: Type.Boolean(),
  invoiceEmailEnabled: Type.Boolean(),
  mapStyle: Type.Enum(MAP_STYLES),
  avoidTolls: Type.Boolean(),
  avoidHighways: Type.Boolean(),
  navigationVoiceLanguage: Type.String({
    maxLength: 12,
    pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$',
    description: 'BCP 47 language tag, e.g. en or hi-IN',
  }),
  preferredVehicleType: Type.Enum(RIDE_TYPES),
  acPreference: Type.Enum(AC_PREFERENCES),
  quietRide: Type.Boolean(),
  language: Type.Union([Type.Enum(LANGUAGES), Type.Null()], {
    description: "The language of the apps and of the service's notifications and e-mails to this user; null (the default): the apps follow the browser's language when it is one of these, else English; the service writes English",
  }),
  deleteAccountRequested: Type.Boolean(),
};

export const Settings = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  ...fields,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Settings = Static<typeof Settings>;

/** Any subset of the fields; unknown properties (such as id or updatedAt echoed back) are ignored. */
export const SettingsUpdate = Type.Partial(Type.Object(fields));
export type SettingsUpdate = Static<typeof SettingsUpdate>;
export type SettingsValues = Required<SettingsUpdate>;

export const DEFAULT_SETTINGS: SettingsValues = {
  tripSharingDefault: true,
  hidePhoneNumber: false,
  emergencyContact: '',
  defaultPaymentMethod: 'upi',
  autoTipEnabled: false,
  invoiceEmailEnabled: true,
  mapStyle: 'standard',
  avoidTolls: false,
  avoidHighways: false,
  navigationVoiceLanguage: 'en',
  preferredVehicleType: 'mini',
  acPreference: 'any',
  quietRide: false,
  language: null,
  deleteAccountRequested: false,
};
