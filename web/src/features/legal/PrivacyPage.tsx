// /privacy: Privacy Policy, an introduction plus ten numbered sections (spec section 2, "Legal pages").
import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '@/lib/company';
import { LegalPage, LegalSection, List, Mail } from './LegalPage';

export function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      path="/privacy"
      description="How Signalcraft Limited collects, uses, stores and protects personal information on its website and mobile apps, under the New Zealand Privacy Act 2020."
    >
      <section aria-label="Introduction" className="space-y-3">
        <p>
          Signalcraft Limited respects your privacy. This policy explains what personal information we collect when you
          use our website, our mobile apps and our services, why we collect it, how we look after it and the choices you
          have. We handle personal information in line with the Privacy Act 2020 and its information privacy
          principles.
        </p>
        <p>We collect only what we need to run our business and serve you, and we never sell personal information.</p>
      </section>

      <LegalSection number={1} title="Who we are">
        <p>
          Signalcraft Limited is a New Zealand software company. We make HHTraff, a handheld serial terminal app for
          technicians and engineers working with traffic control systems and serial equipment, the WireWrite tool for
          electrical workers, and the cables and adapters that go with them. We are responsible for the personal
          information described in this policy. You can reach our privacy officer at <Mail address={SUPPORT_EMAIL} />.
        </p>
      </LegalSection>

      <LegalSection number={2} title="Information we collect">
        <List
          items={[
            'Account details: your name, email address and password. Passwords are stored only as a one-way hash that we cannot read.',
            'Orders and subscriptions: the products and plans you buy, billing periods, order status and, for hardware, your delivery address and phone number.',
            'Enquiries: the name, email, company, phone number and message you send us through the Contact Sales form or by email.',
            'Enterprise accounts: the company name, billing email and the email addresses of team members the administrator adds.',
            'Technical information: IP address, browser type and the times of requests, recorded in server logs to keep the service secure and working.',
          ]}
        />
      </LegalSection>

      <LegalSection number={3} title="Our mobile apps">
        <p>
          HHTraff is available on Android now, and an iOS version is coming soon. The apps are designed to keep your work
          on your device. When you use them:
        </p>
        <List
          items={[
            'You sign in with your Signalcraft account; the app keeps a sign-in token on the device so you stay signed in.',
            'The app checks your subscription with our servers and stores the result, with the time of the last check, on the device so that it keeps working without coverage for up to seven days.',
            'The app asks for Bluetooth and USB permissions only to connect to your serial adapters. Older Android versions also require location permission for Bluetooth scanning; the app does not collect or store your location.',
            'Terminal sessions, serial data and logs you capture stay on your device unless you choose to export or share them.',
            'If the app crashes, it may send us a diagnostic report containing the device model, operating system version and app version, without the content of your sessions.',
          ]}
        />
        <p>
          WireWrite stores the details electrical workers enter to create certificates, including their name, email
          address, licence number and the site details of each certificate, so that certificates can be drafted, issued
          and kept on record.
        </p>
      </LegalSection>

      <LegalSection number={4} title="How we use your information">
        <List
          items={[
            'To provide the apps and services you sign up for, activate and check subscriptions, and manage enterprise licences.',
            'To process orders, deliver hardware, send receipts and keep the financial records the law requires.',
            'To answer your enquiries and support requests.',
            'To keep our services secure, including detecting fraud and misuse.',
            'To improve our products, using aggregated information that does not identify you.',
            'To send you news about our products only if you have agreed to it; every such email has an unsubscribe link.',
          ]}
        />
      </LegalSection>

      <LegalSection number={5} title="Payments">
        <p>
          Card payments are handled by our third-party payment provider, which processes your card under its own privacy
          policy and security standards. Signalcraft does not receive or store your full card details. We keep the
          payment reference, amount, currency and status so that we can match payments to orders and give refunds.
        </p>
      </LegalSection>

      <LegalSection number={6} title="Sharing and disclosure">
        <p>We share personal information only as needed to run our services:</p>
        <List
          items={[
            'with service providers who host our systems, process payments, deliver email or deliver parcels, under contracts that limit their use of it to the service they provide to us;',
            'with the administrator of your enterprise account, who can see the team members and licences of that account;',
            'when the law requires it, or to protect the safety of any person or the security of our services.',
          ]}
        />
        <p>
          Some providers store information outside New Zealand. When we send personal information overseas we take
          reasonable steps to make sure it is protected in a way comparable to the Privacy Act 2020.
        </p>
      </LegalSection>

      <LegalSection number={7} title="Storage and security">
        <p>
          Information is encrypted in transit, access is limited to the staff who need it, and staff accounts with
          administrative access are protected with two-factor authentication. If a privacy breach is likely to cause
          serious harm, we will notify the Office of the Privacy Commissioner and the people affected, as the Privacy Act
          2020 requires.
        </p>
      </LegalSection>

      <LegalSection number={8} title="How long we keep information">
        <List
          items={[
            'Account and subscription information is kept while your account is open.',
            'Order and payment records are kept for seven years, as New Zealand tax law requires.',
            'Contact enquiries are kept for up to two years.',
            'WireWrite accounts with no activity for 90 days are deleted, together with their data; we send a reminder before that happens.',
          ]}
        />
        <p>
          When you close your account we delete or anonymise your information, except what we must keep by law: orders
          and tax invoices stay for seven years under &quot;Closed account&quot;, without your name or email. You can
          close your account yourself on the <Link to="/account/privacy" className="font-medium text-brand-700 underline hover:text-brand-800">Your Data</Link> page.
        </p>
      </LegalSection>

      <LegalSection number={9} title="Cookies and local storage">
        <p>
          This website does not use advertising or third-party tracking cookies. Your browser&apos;s local storage holds
          your sign-in session so that you stay signed in between pages; signing out removes it. The free tier of
          WireWrite may show advertising, and we tell you there when it does.
        </p>
      </LegalSection>

      <LegalSection number={10} title="Your rights, changes and contact">
        <p>
          You have the right to ask for a copy of the personal information we hold about you and to ask us to correct it.
          Signed in, you can download a copy at once on the <Link to="/account/privacy" className="font-medium text-brand-700 underline hover:text-brand-800">Your Data</Link> page, or email{' '}
          <Mail address={SUPPORT_EMAIL} /> and we will respond within 20 working days. If you are not satisfied with
          how we handle a privacy matter, you can complain to the Office of the Privacy Commissioner (privacy.org.nz).
        </p>
        <p>
          We may update this policy as our services change. The date at the top shows when it was last updated, and we
          will tell account holders by email about significant changes.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
