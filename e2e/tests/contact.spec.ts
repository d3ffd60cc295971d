import { expect, test } from './fixtures';

test('send the Contact Sales form: Sending..., thank-you, then the dialog closes itself', async ({ page }) => {
  await page.goto('/');
  const opener = page.getByRole('region', { name: 'Enterprise Solutions' }).getByRole('button', { name: 'Contact Sales' });
  await opener.click();

  const dialog = page.getByRole('dialog', { name: 'Contact Sales' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();

  await dialog.getByRole('textbox', { name: 'Name' }).fill('Aroha Ngata');
  await dialog.getByRole('textbox', { name: 'Email' }).fill(`aroha+${String(Date.now())}@example.co.nz`);
  await dialog.getByRole('textbox', { name: 'Company' }).fill('Southern Roading Ltd');
  await dialog.getByRole('textbox', { name: 'Phone' }).fill('+64 21 555 0100');
  await dialog.getByRole('textbox', { name: 'Message' }).fill('We would like HHTraff licences and Bluetooth adapters for 12 technicians.');

  const posted = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/contact');
  await dialog.getByRole('button', { name: 'Send Message' }).click();
  expect((await posted).status()).toBe(201);

  await expect(dialog.getByText("Thank you! We'll get back to you within 24 hours.")).toBeVisible();
  // Closes itself 2 s after success, handing focus back to the button that opened it.
  await expect(dialog).toBeHidden({ timeout: 4_000 });
  await expect(opener).toBeFocused();
});

test('the Contact Sales dialog closes with Escape and with Cancel', async ({ page }) => {
  await page.goto('/');
  const opener = page.getByRole('region', { name: 'Enterprise Solutions' }).getByRole('button', { name: 'Get Started' });
  const dialog = page.getByRole('dialog', { name: 'Contact Sales' });

  await opener.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await opener.click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
