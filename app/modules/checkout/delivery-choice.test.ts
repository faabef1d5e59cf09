/** The delivery step's form as the browser and the server both read it: what each way needs of the recipient. */
import { describe, expect, it } from 'vitest';
import { type MethodKind, parseDeliveryForm } from './checkout.schema';

const kinds: Record<string, MethodKind> = { 'm-locker': 'locker', 'm-courier': 'courier', 'm-pickup': 'pickup' };
const parse = (fields: Record<string, string>) => parseDeliveryForm(fields, (id) => kinds[id]);
const recipient = { fullName: 'Ola Nowak', country: 'PL', phone: '600 100 200' };

describe('the delivery step’s form', () => {
  it('a locker needs a name, a Polish mobile and a locker, not a street, city or postcode', () => {
    expect(parse({ ...recipient, methodId: 'm-locker', lockerCode: 'kra01m' })).toEqual({
      ok: true,
      data: { address: { fullName: 'Ola Nowak', address: '', city: '', zipCode: '' }, country: 'PL', phone: '600100200', methodId: 'm-locker', lockerCode: 'KRA01M', saveToProfile: false },
    });
    // Half an address typed there is neither an error nor kept; a whole one is kept (for the profile).
    expect(parse({ ...recipient, methodId: 'm-locker', lockerCode: 'KRA01M', city: 'Kraków' })).toMatchObject({ ok: true, data: { address: { address: '', city: '', zipCode: '' } } });
    expect(parse({ ...recipient, methodId: 'm-locker', lockerCode: 'KRA01M', address: 'Długa 5', city: 'Kraków', zipCode: '31-147' })).toMatchObject({
      ok: true,
      data: { address: { address: 'Długa 5', city: 'Kraków', zipCode: '31-147' } },
    });
    expect(parse({ ...recipient, methodId: 'm-locker', phone: '' })).toEqual({ ok: false, fieldErrors: { phone: 'checkout.errors.phoneRequired', lockerCode: 'checkout.errors.lockerRequired' } });
  });

  it('a courier needs the whole address; a pickup only the name', () => {
    expect(parse({ ...recipient, methodId: 'm-courier' })).toEqual({
      ok: false,
      fieldErrors: { address: 'checkout.errors.addressRequired', city: 'checkout.errors.cityRequired', zipCode: 'checkout.errors.zipCodeRequired' },
    });
    expect(parse({ ...recipient, methodId: 'm-pickup', fullName: ' ' })).toEqual({ ok: false, fieldErrors: { fullName: 'checkout.errors.fullNameRequired' } });
    expect(parse({ ...recipient, methodId: 'm-pickup' })).toMatchObject({ ok: true });
  });
});
