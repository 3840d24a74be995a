import { useEffect, useState } from 'preact/hooks';
import type { AccountPhone } from '../api/types.ts';
import { useApi } from './app-context.tsx';
import { ErrorNotice, Field, Notice } from './components.tsx';
import { useAction } from './use-action.ts';
import { t } from '../i18n/i18n.ts';

/**
 * The account's phone number in the rider and the driver app: a code sent by SMS verifies it, and
 * masked calls on a ride then ring it. Only its owner ever sees it (docs/safety.md).
 */
export function PhoneVerification() {
  const api = useApi();
  const [phone, setPhone] = useState<AccountPhone | null>(null);
  const [number, setNumber] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState('');
  const load = useAction(async () => setPhone(await api.safety.phone()));
  useEffect(() => void load.run(), [api]);
  const send = useAction(async () => {
    setSent((await api.safety.sendPhoneCode(number.trim())).message);
    setPhone(await api.safety.phone());
  });
  const verify = useAction(async () => {
    setPhone(await api.safety.verifyPhone(code.trim()));
    setSent('');
    setCode('');
  });
  const waiting = phone?.pendingPhone ?? null;
  return (
    <section class="card stack" aria-labelledby="phone-title">
      <h3 id="phone-title">{t('phone.title')}</h3>
      <p class="flush">{phone?.phone ? t('phone.verified', { phone: phone.phone }) : t('phone.none')}</p>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void send.run();
        }}
      >
        <Field label={phone?.phone ? t('phone.new') : t('phone.number')} hint={t('phone.hint')}>
          <input name="phone" type="tel" autocomplete="tel" pattern="\+[1-9][0-9]{7,14}" required value={number} onInput={(e) => setNumber(e.currentTarget.value)} />
        </Field>
        <button type="submit" class="secondary" disabled={send.busy}>
          {t('phone.send')}
        </button>
      </form>
      {sent && <Notice>{sent}</Notice>}
      {waiting && (
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void verify.run();
          }}
        >
          <Field label={t('phone.codeSentTo', { phone: waiting })} hint={t('phone.codeHint')}>
            <input name="code" inputMode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
          </Field>
          <button type="submit" disabled={verify.busy}>
            {t('phone.verify')}
          </button>
        </form>
      )}
      <ErrorNotice message={load.error || send.error || verify.error} />
    </section>
  );
}
