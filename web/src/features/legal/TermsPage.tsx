// /terms: Terms and Conditions, nine numbered sections (spec section 2, "Legal pages").
import { SALES_EMAIL, SUPPORT_EMAIL } from '@/lib/company';
import { LegalPage, LegalSection, List, Mail } from './LegalPage';

export function TermsPage() {
  return (
    <LegalPage
      title="Terms and Conditions"
      path="/terms"
      description="The terms that apply when you buy app subscriptions or serial connectivity hardware from Signalcraft Limited, including payment, cancellation, refunds and warranty."
    >
      <p>
        Please read these terms before you buy from us. They are written to be clear and fair, and they sit alongside
        the rights you have under New Zealand consumer law, which they do not take away.
      </p>

      <LegalSection number={1} title="About these terms">
        <p>
          These terms apply when you use this website, create an account, subscribe to one of our apps (such as HHTraff
          or WireWrite) or buy hardware such as cables and adapters from us. &ldquo;Signalcraft&rdquo;,
          &ldquo;we&rdquo; and &ldquo;us&rdquo; mean Signalcraft Limited, a company registered in New Zealand.
          &ldquo;You&rdquo; means the person or organisation buying from us or using our products.
        </p>
        <p>
          By placing an order you agree to these terms. If you order on behalf of a business, you confirm that you are
          authorised to accept these terms for that business.
        </p>
      </LegalSection>

      <LegalSection number={2} title="Your account">
        <p>
          You need an account to subscribe to our apps and to see your orders. Please give us accurate details and keep
          your password to yourself; you are responsible for what happens under your account. We recommend turning on
          two-factor authentication where it is offered.
        </p>
        <p>
          We may suspend or close an account that is used for fraud, to share licences beyond what was purchased, or to
          break the law. Where it is reasonable to do so we will tell you first and give you a chance to put things right.
        </p>
      </LegalSection>

      <LegalSection number={3} title="Prices and payment">
        <List
          items={[
            'All prices are in New Zealand dollars (NZD) and include GST, unless a price is clearly shown in another currency (some plans are offered in Australian or US dollars).',
            'Card payments are processed by our third-party payment provider. Your card details go directly to that provider: Signalcraft does not see or store your full card details. We keep only what we need to match the payment to your order, such as a transaction reference, the amount and the last four digits of the card.',
            'Your order is accepted when payment is confirmed. We will email a receipt, and a GST tax invoice is available on request.',
            'If a product is listed at an obviously wrong price, we may cancel the order and refund you in full before it is delivered.',
          ]}
        />
      </LegalSection>

      <LegalSection number={4} title="Subscriptions, renewal and cancellation">
        <p>
          Subscriptions are billed in advance for the period of the plan you choose (for example monthly, every three
          months or yearly) and renew automatically at the end of each period until you cancel.
        </p>
        <List
          items={[
            'You can cancel at any time from the billing management page of your account, or by emailing us. Cancellation stops the next renewal; you keep access until the end of the period you have already paid for.',
            'We do not refund the unused part of a billing period when you cancel, except as required by law.',
            'If we change the price of a plan, we will give you at least 30 days’ notice before the new price applies to your next renewal, so you can cancel first if you wish.',
            'Enterprise licences are assigned by the administrator of the enterprise account, up to the number of licences purchased.',
          ]}
        />
      </LegalSection>

      <LegalSection number={5} title="Delivery">
        <p>
          <strong>Digital products.</strong> A subscription is delivered digitally when it is activated on your account,
          which normally happens as soon as your payment is confirmed. You then sign in to the app with the same account.
        </p>
        <p>
          <strong>Hardware.</strong> In-stock items are usually dispatched within two working days by tracked courier
          within New Zealand. Delivery times are estimates. Please check your parcel when it arrives and tell us within
          seven days if anything is missing or damaged in transit. Delivery outside New Zealand is by arrangement with
          our sales team.
        </p>
      </LegalSection>

      <LegalSection number={6} title="Refunds and your consumer rights">
        <p>
          If you are a consumer, you have guarantees under the Consumer Guarantees Act 1993 and protections under the
          Fair Trading Act 1986. Nothing in these terms limits those rights.
        </p>
        <List
          items={[
            'Because digital products are delivered immediately, there are no change-of-mind refunds after digital delivery, except as required by law.',
            'If a subscription does not activate, does not work as described, or you were charged in error, contact us and we will fix the problem or refund you.',
            'Refund requests and activation issues must be raised within 14 days from purchase, by emailing our support team with your order number.',
            'Hardware that is unused and in its original packaging may be returned for a change of mind within 14 days from purchase; return shipping is at your cost. Faulty hardware is covered by your consumer rights and our warranty (section 7).',
          ]}
        />
        <p>
          If you buy our products for the purposes of a business, you agree that the Consumer Guarantees Act 1993 does
          not apply, and that sections 9, 12A and 13 of the Fair Trading Act 1986 do not apply, to the extent the law
          allows. We agree that this is fair and reasonable between businesses.
        </p>
      </LegalSection>

      <LegalSection number={7} title="Hardware warranty">
        <p>
          Hardware we sell is covered for 12 months from delivery against defects in materials and workmanship. If a
          covered fault appears, we will repair or replace the item or refund the price. This warranty is in addition to
          your rights under the Consumer Guarantees Act 1993.
        </p>
        <p>
          The warranty does not cover damage caused by incorrect wiring, connecting to voltages outside the
          specification, water or impact damage, opening or modifying the unit, or normal wear of cables and connectors.
          To make a claim, email our support team with your order number and a description of the fault.
        </p>
      </LegalSection>

      <LegalSection number={8} title="Using our apps, intellectual property and liability">
        <p>
          While your subscription is active we grant you a non-exclusive, non-transferable licence to use the app for your
          own work or your organisation&apos;s work. You may not copy, resell, reverse engineer or share the app or your
          licence beyond what you purchased. The apps, this website and their content remain the property of Signalcraft
          Limited and its licensors.
        </p>
        <p>
          Our apps are tools for trained people. You remain responsible for working safely on traffic control and other
          equipment, and for following the procedures of the network owner or road controlling authority you work for.
        </p>
        <p>
          To the extent the law allows, we are not liable for indirect or consequential loss, such as loss of profit or
          data, and our total liability to you is limited to the amount you paid us in the 12 months before the claim.
          These limits do not apply where the Consumer Guarantees Act 1993 or other law does not allow them.
        </p>
      </LegalSection>

      <LegalSection number={9} title="Changes, governing law and contact">
        <p>
          We may update these terms from time to time; the terms shown when you place an order apply to that order, and
          significant changes for existing subscribers are notified by email. These terms are governed by New Zealand law
          and the New Zealand courts have jurisdiction.
        </p>
        <p>Signalcraft Limited, New Zealand.</p>
        <List
          items={[
            <>
              Sales and enterprise enquiries: <Mail address={SALES_EMAIL} />. We respond to sales enquiries within 24
              hours.
            </>,
            <>
              Support, refunds and activation issues: <Mail address={SUPPORT_EMAIL} />.
            </>,
          ]}
        />
      </LegalSection>
    </LegalPage>
  );
}
