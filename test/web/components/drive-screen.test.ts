import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Api } from '../../../web/src/api/endpoints.ts';
import type { Driver } from '../../../web/src/driver/use-driver.ts';
import { mount } from './dom.ts';

const { h, render } = await import('preact');
const { act } = await import('preact/test-utils');
const { AppProvider } = await import('../../../web/src/ui/app-context.tsx');
const { DriveScreen } = await import('../../../web/src/driver/drive-screen.tsx');

const settings = { mapTileUrl: '', mapAttribution: '', checkoutUrl: '', driverApprovalRequired: false };

/** The driver app's state as useDriver gives it, with the parts a test changes. */
function driver(fields: Partial<Driver>): Driver {
  const nothing = () => undefined;
  return { profile: undefined, online: false, goOnline: nothing, goOffline: async () => undefined, position: null, source: 'waiting', place: nothing, offers: [], setOffers: nothing, skewMs: 0, ride: null, showRide: nothing, notice: '', setNotice: nothing, ...fields } as unknown as Driver;
}

async function show(state: Driver): Promise<HTMLElement> {
  const root = mount();
  await act(() => render(h(AppProvider, { api: {} as Api, settings, children: h(DriveScreen, { driver: state }) }), root));
  return root;
}

const button = (root: HTMLElement, text: string) => [...root.querySelectorAll('button')].find((item) => item.textContent?.trim() === text);

describe('the drive screen', () => {
  test('a driver without a vehicle is sent to add one first and cannot go online', async () => {
    const root = await show(driver({ profile: null }));
    assert.match(root.textContent ?? '', /Add your vehicle first/);
    assert.equal(button(root, 'Go online')?.disabled, true);
  });

  test("a driver with a vehicle sees it, and the Go online button goes online", async () => {
    let wentOnline = 0;
    const root = await show(driver({ profile: { vehicleType: 'auto', vehicleNumber: 'KA05XY9876' } as Driver['profile'], goOnline: () => void wentOnline++ }));
    assert.match(root.textContent ?? '', /Auto KA05XY9876\. Go online to receive ride offers near you\./);
    await act(() => button(root, 'Go online')!.click());
    assert.equal(wentOnline, 1);
  });

  test('a notice can be dismissed', async () => {
    const notices: string[] = [];
    const root = await show(driver({ notice: 'An offer ran out of time.', setNotice: ((text: string) => void notices.push(text)) as Driver['setNotice'] }));
    assert.match(root.querySelector('[role="status"]')?.textContent ?? '', /An offer ran out of time\./);
    await act(() => button(root, 'Dismiss')!.click());
    assert.deepEqual(notices, ['']);
  });
});
