import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Role } from '../api/types.ts';
import { ErrorNotice, Field, Notice } from './components.tsx';
import { useAction } from './use-action.ts';
import { useApi } from './app-context.tsx';
import { t } from '../i18n/i18n.ts';

interface Props {
  title: string;
  intro: string;
  /** The role new accounts of this app get, and the one asked for at login. */
  role: Role;
  /** Whether a signed-in role may use this app. */
  admits: (role: Role) => boolean;
  /** What to say to an account this app does not admit. */
  refusal: string;
  /** Who may sign up here, when not everyone may (the console: ADMIN_EMAILS, or npm run create-admin). */
  signUpNote?: ComponentChildren;
}

type Step = 'login' | 'signup' | 'code';

/** Log in, or sign up with the code the service e-mails. */
export function AuthScreen({ title, intro, role, admits, refusal, signUpNote }: Props) {
  const api = useApi();
  const [step, setStep] = useState<Step>('login');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  // Where the code went: by e-mail, or (a service without SMTP_URL) into the service's log.
  const [sent, setSent] = useState({ to: '', emailSent: true });

  const logIn = async () => {
    const session = await api.auth.login({ email, password, role });
    if (!admits(session.role)) {
      await api.client.signOut();
      throw new Error(refusal);
    }
  };
  const login = useAction(logIn);
  const requestCode = useAction(async () => {
    const { emailSent } = await api.auth.requestOtp({ name, email });
    setSent({ to: email, emailSent });
    setStep('code');
  });
  const signUp = useAction(async () => {
    await api.auth.signup({ name, email, password, otp: code.trim(), role });
    await logIn();
  });

  return (
    <div class="shell">
      <header class="top">
        <h1>{title}</h1>
      </header>
      <main id="main">
        <p>{intro}</p>
        <div class="row" role="group" aria-label={t('auth.account')}>
          <button type="button" class={step === 'login' ? '' : 'secondary'} aria-pressed={step === 'login'} onClick={() => setStep('login')}>
            {t('auth.logIn')}
          </button>
          <button type="button" class={step === 'login' ? 'secondary' : ''} aria-pressed={step !== 'login'} onClick={() => setStep('signup')}>
            {t('auth.signUp')}
          </button>
        </div>
        {step === 'login' && (
          <form
            class="card stack"
            onSubmit={(event) => {
              event.preventDefault();
              void login.run();
            }}
          >
            <h2>{t('auth.logIn')}</h2>
            <Field label={t('auth.email')}>
              <input type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </Field>
            <Field label={t('auth.password')}>
              <input type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
            </Field>
            <ErrorNotice message={login.error} />
            <button type="submit" disabled={login.busy}>
              {login.busy ? t('auth.loggingIn') : t('auth.logIn')}
            </button>
          </form>
        )}
        {step === 'signup' && (
          <form
            class="card stack"
            onSubmit={(event) => {
              event.preventDefault();
              void requestCode.run();
            }}
          >
            <h2>{t('auth.createTitle')}</h2>
            {signUpNote && <Notice>{signUpNote}</Notice>}
            <Field label={t('auth.name')}>
              <input name="name" autocomplete="name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </Field>
            <Field label={t('auth.email')} hint={t('auth.emailHint')}>
              <input type="email" name="email" autocomplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </Field>
            <ErrorNotice message={requestCode.error} />
            <button type="submit" disabled={requestCode.busy}>
              {requestCode.busy ? t('auth.sending') : t('auth.sendCode')}
            </button>
          </form>
        )}
        {step === 'code' && (
          <form
            class="card stack"
            onSubmit={(event) => {
              event.preventDefault();
              void signUp.run();
            }}
          >
            <h2>{t('auth.enterCode')}</h2>
            {sent.emailSent ? (
              <Notice>{t('auth.codeSent', { email: sent.to })}</Notice>
            ) : (
              <Notice>{t('auth.codeInLog', { email: sent.to })}</Notice>
            )}
            <Field label={sent.emailSent ? t('auth.codeFromEmail') : t('auth.codeFromLog')}>
              <input name="otp" inputMode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required maxLength={6} value={code} onInput={(e) => setCode(e.currentTarget.value)} />
            </Field>
            <Field label={t('auth.choosePassword')} hint={t('auth.passwordHint')}>
              <input type="password" name="new-password" autocomplete="new-password" required minLength={8} maxLength={128} value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
            </Field>
            <ErrorNotice message={signUp.error} />
            <div class="row">
              <button type="submit" disabled={signUp.busy}>
                {signUp.busy ? t('auth.creating') : t('auth.createAccount')}
              </button>
              <button type="button" class="secondary" disabled={requestCode.busy} onClick={() => void requestCode.run()}>
                {t('auth.newCode')}
              </button>
            </div>
            <ErrorNotice message={requestCode.error} />
          </form>
        )}
      </main>
    </div>
  );
}
