/* global window, document, fetch, URL */
// The provider stand-in's checkout for apps in a browser, served at /v1/checkout.js: the part of
// Razorpay's checkout.js the apps use. `new Razorpay({key, order_id, amount, currency, name,
// description, prefill, handler, modal: {ondismiss}})`, `.on('payment.failed', listener)`,
// `.open()`, `.close()`. It shows a modal dialog to pay, fail or cancel; the stand-in records the
// payment and signs it, and `handler` gets `{razorpay_payment_id, razorpay_order_id,
// razorpay_signature}` as from Razorpay. A failed attempt keeps the dialog open for another, as
// Razorpay's does. Plain JavaScript, as the browser runs it; no money moves.
(() => {
  // Where this script came from: the stand-in that records and signs the payments.
  const standIn = new URL(document.currentScript.src).origin;
  const METHODS = [['upi', 'UPI'], ['card', 'Card'], ['netbanking', 'Net banking'], ['wallet', 'Wallet']];
  let dialogs = 0;

  const element = (tag, properties = {}, children = []) => {
    const node = Object.assign(document.createElement(tag), properties);
    node.append(...children);
    return node;
  };
  // Styles through the CSSOM: the apps' Content-Security-Policy refuses inline style sheets and attributes.
  const styled = (node, style) => {
    Object.assign(node.style, style);
    return node;
  };
  const button = (text) => styled(element('button', { type: 'button', textContent: text }), { font: 'inherit', padding: '0.5rem 1rem', minHeight: '44px' });

  async function post(path, body) {
    const response = await fetch(`${standIn}/v1/checkout/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error?.description ?? `The payment provider answered ${response.status}`);
    return answer;
  }

  class Razorpay {
    #options;
    #listeners = [];
    #dialog = null;

    constructor(options) {
      if (!options || typeof options.key !== 'string' || typeof options.order_id !== 'string') throw new Error('Razorpay: key and order_id are required');
      this.#options = options;
    }

    on(event, listener) {
      if (event === 'payment.failed') this.#listeners.push(listener);
    }

    open() {
      if (this.#dialog) return;
      const options = this.#options;
      const id = `standin-checkout-${++dialogs}`;
      const amount = new Intl.NumberFormat('en-IN', { style: 'currency', currency: options.currency || 'INR' }).format((options.amount ?? 0) / 100);
      const method = element('select', { id: `${id}-method` }, METHODS.map(([value, label]) => element('option', { value, textContent: label })));
      const status = element('p', { id: `${id}-status` });
      status.setAttribute('role', 'status');
      const pay = button(`Pay ${amount}`);
      const fail = button('Fail the payment');
      const cancel = button('Cancel');
      pay.autofocus = true;
      const dialog = styled(
        element('dialog', {}, [
          element('h2', { id: `${id}-title`, textContent: `Pay ${amount}` }),
          element('p', { id: `${id}-about`, textContent: [options.name, options.description].filter(Boolean).join(': ') + `. Order ${options.order_id}.` }),
          ...(options.prefill?.name ? [element('p', { textContent: `Paying as ${options.prefill.name}.` })] : []),
          element('p', {}, [element('label', { htmlFor: method.id, textContent: 'Method ' }), method]),
          status,
          styled(element('div', {}, [pay, fail, cancel]), { display: 'flex', flexWrap: 'wrap', gap: '0.5rem' }),
          element('p', {}, [element('small', { textContent: 'Payment provider stand-in: no money moves.' })]),
        ]),
        { maxWidth: '22rem', width: 'calc(100% - 2rem)', boxSizing: 'border-box', padding: '1rem', border: '1px solid #555', borderRadius: '8px', color: '#111', background: '#fff', font: '16px/1.5 system-ui, sans-serif' },
      );
      dialog.setAttribute('aria-labelledby', `${id}-title`);
      dialog.setAttribute('aria-describedby', `${id}-about`);

      let paid = false;
      let pending = false;
      const busy = (on, text) => {
        pending = on;
        for (const control of [pay, fail, cancel, method]) control.disabled = on;
        status.textContent = text;
      };
      const attempt = async (path, after) => {
        busy(true, path === 'pay' ? 'Paying…' : 'Failing the payment…');
        try {
          after(await post(path, { key_id: options.key, order_id: options.order_id, amount: options.amount, method: method.value }));
        } catch (error) {
          busy(false, error.message);
        }
      };
      pay.onclick = () =>
        void attempt('pay', (answer) => {
          paid = true;
          this.close();
          options.handler?.(answer);
        });
      fail.onclick = () =>
        void attempt('fail', (answer) => {
          busy(false, `The payment failed: ${answer.error.description}. Try again, or cancel.`);
          for (const listener of this.#listeners) listener(answer);
        });
      cancel.onclick = () => this.close();
      // Not while an attempt is on its way: closing then would tell the app that nothing was charged.
      dialog.addEventListener('cancel', (event) => {
        if (pending) event.preventDefault();
      });
      // Escape closes it too; whatever closes it without a payment is a dismissal.
      dialog.addEventListener('close', () => {
        dialog.remove();
        this.#dialog = null;
        if (!paid) options.modal?.ondismiss?.();
      });
      document.body.append(dialog);
      this.#dialog = dialog;
      dialog.showModal();
    }

    close() {
      this.#dialog?.close();
    }
  }

  window.Razorpay = Razorpay;
})();
