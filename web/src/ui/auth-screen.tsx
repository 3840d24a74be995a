import { useState } from 'preact/hooks';
import type { Role } from '../api/types.ts';
import { ErrorNotice, Field, Notice } from './components.tsx';
import { useAction } from './use-action.ts';
import { useApi } from './app-context.tsx';

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
  signUpNote?: string;
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
        <div class="row" role="group" aria-label="Account">
          <button type="button" class={step === 'login' ? '' : 'secondary'} aria-pressed={step === 'login'} onClick={() => setStep('login')}>
            Log in
          </button>
          <button type="button" class={step === 'login' ? 'secondary' : ''} aria-pressed={step !== 'login'} onClick={() => setStep('signup')}>
            Sign up
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
            <h2>Log in</h2>
            <Field label="E-mail">
              <input type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </Field>
            <Field label="Password">
              <input type="password" name="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
            </Field>
            <ErrorNotice message={login.error} />
            <button type="submit" disabled={login.busy}>
              {login.busy ? 'Logging in…' : 'Log in'}
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
            <h2>Create an account</h2>
            {signUpNote && <Notice>{signUpNote}</Notice>}
            <Field label="Your name">
              <input name="name" autocomplete="name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </Field>
            <Field label="E-mail" hint="We send a 6-digit code to this address.">
              <input type="email" name="email" autocomplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </Field>
            <ErrorNotice message={requestCode.error} />
            <button type="submit" disabled={requestCode.busy}>
              {requestCode.busy ? 'Sending…' : 'Send me a code'}
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
            <h2>Enter your code</h2>
            {sent.emailSent ? (
              <Notice>We sent a code to {sent.to}. It is valid for 10 minutes.</Notice>
            ) : (
              <Notice>
                This service sends no e-mail (it has no SMTP_URL): the code for {sent.to} was written to the service's log, as "Your sign-up code is …". Whoever runs
                the service finds it there. It is valid for 10 minutes.
              </Notice>
            )}
            <Field label={sent.emailSent ? 'Code from the e-mail' : 'Code from the log'}>
              <input name="otp" inputMode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required maxLength={6} value={code} onInput={(e) => setCode(e.currentTarget.value)} />
            </Field>
            <Field label="Choose a password" hint="8 to 128 characters.">
              <input type="password" name="new-password" autocomplete="new-password" required minLength={8} maxLength={128} value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
            </Field>
            <ErrorNotice message={signUp.error} />
            <div class="row">
              <button type="submit" disabled={signUp.busy}>
                {signUp.busy ? 'Creating…' : 'Create account'}
              </button>
              <button type="button" class="secondary" disabled={requestCode.busy} onClick={() => void requestCode.run()}>
                Send a new code
              </button>
            </div>
            <ErrorNotice message={requestCode.error} />
          </form>
        )}
      </main>
    </div>
  );
}
