-- Catalogue seed: the five launch products and their pricing plans.
--
-- Applied by the server to an empty products table, after the migrations. Same statement rules
-- as the migrations (a semicolon ends a statement only at the end of a line, and none may appear
-- anywhere else), plus two for this file's text: no dollar sign followed by a digit (the
-- PostgreSQL connector counts those as placeholders, even inside string literals) and no HTML
-- entities (they contain semicolons).
-- Ids are fixed so that tests, links and later seeds can refer to them. created_at is staggered
-- one minute apart so that "oldest first" gives the landing-page order below.
-- Money is NZD cents, GST included. Rich text uses only the sanitiser's allowlist:
-- h1 h2 h3 p br strong em u s ol ul li a[href].

INSERT INTO products (
    id, slug, name, description, description_detail, meta_keywords, type, icon_url, picture_url,
    stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing,
    price_nzd, billing_interval, created_at, updated_at
) VALUES (
    '2d1ed2c8-1727-4279-bfc0-512f613b5b8b',
    'hhtraff',
    'HHTraff Terminal',
    '<p>The industrial handheld terminal for technicians and engineers who work on <strong>traffic control systems</strong> and serial equipment. Connect over Bluetooth, USB, RS-232, RS-422 or RS-485 from an Android phone or tablet. iOS is coming soon.</p>',
    '<h2>A serial terminal that fits in your pocket</h2>
<p>HHTraff Terminal turns an Android phone or tablet into a field terminal for traffic signal controllers, ramp meters, variable message signs and any other equipment with a serial port. Leave the laptop in the van: open the cabinet, connect, and you are talking to the controller.</p>
<h2>Every connection you meet in the field</h2>
<ul>
<li><strong>Bluetooth</strong> serial adapters, so you can stand clear of the cabinet and the traffic</li>
<li><strong>USB</strong> serial cables through the USB-C or micro-USB port (USB OTG)</li>
<li><strong>RS-232</strong>, <strong>RS-422</strong> and <strong>RS-485</strong> equipment through our cables and interfaces</li>
</ul>
<h2>Built for the job</h2>
<ul>
<li>Baud rate, data bits, parity, stop bits and flow control set per connection</li>
<li>Text and hex views of the same session, with timestamps</li>
<li>Saved connection profiles for each site and controller type</li>
<li>Session logs you can share straight from the phone for fault reports</li>
</ul>
<h2>Platforms</h2>
<p>Available now on Android. <em>iOS is coming soon.</em> Subscribe monthly or save with a yearly plan. Prices include GST.</p>',
    'serial terminal, traffic signal controller, traffic control, RS-232, RS-422, RS-485, Bluetooth serial, USB serial, Android terminal app, field engineer tools',
    'subscription',
    '/products/hhtraff/hhtraff-icon.svg',
    '/products/hhtraff/hhtraff-screen.svg',
    NULL,
    FALSE,
    TRUE,
    '["Bluetooth, USB, RS-232, RS-422 and RS-485 connections","Text and hex views with timestamps","Saved connection profiles per site and controller","Session logs to share for fault reports","Android now, iOS coming soon"]',
    'checkout',
    NULL,
    TRUE,
    1500,
    'month',
    '2025-10-01T09:00:00.000Z',
    '2025-10-01T09:00:00.000Z'
);

INSERT INTO pricing_plans (
    id, product_id, name, price_amount, currency, billing_frequency_value, billing_frequency_unit,
    sort_order, created_at, updated_at
) VALUES (
    '40394828-0a74-471c-981f-345d4cc95e86',
    '2d1ed2c8-1727-4279-bfc0-512f613b5b8b',
    'Monthly', 1500, 'NZD', 1, 'month', 0,
    '2025-10-01T09:00:00.000Z', '2025-10-01T09:00:00.000Z'
);

INSERT INTO pricing_plans (
    id, product_id, name, price_amount, currency, billing_frequency_value, billing_frequency_unit,
    sort_order, created_at, updated_at
) VALUES (
    'c369542f-be8b-4eaf-aaed-1318e07635d2',
    '2d1ed2c8-1727-4279-bfc0-512f613b5b8b',
    'Yearly', 15000, 'NZD', 1, 'year', 1,
    '2025-10-01T09:00:00.000Z', '2025-10-01T09:00:00.000Z'
);

INSERT INTO products (
    id, slug, name, description, description_detail, meta_keywords, type, icon_url, picture_url,
    stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing,
    price_nzd, billing_interval, created_at, updated_at
) VALUES (
    '5c5390c0-42e5-4277-bd77-075f3d844040',
    'wirewrite',
    'WireWrite',
    '<p>The companion tool for electrical workers licensed by the <strong>EWRB</strong>. Create certificates of compliance on site, save them as drafts while the job is under way, and issue them when the work is done.</p>',
    '<h2>Certificates of compliance, written on site</h2>
<p>WireWrite is made for electricians and electrical workers licensed by the Electrical Workers Registration Board (EWRB). Fill in a certificate of compliance on your phone while you are still at the job, instead of copying notes into a form back at the office.</p>
<h2>How it works</h2>
<ol>
<li>Start a certificate on site. It is saved as a <strong>draft</strong> as you go.</li>
<li>Record the site location and the details of the prescribed electrical work.</li>
<li>When the work is complete and tested, <strong>issue</strong> the certificate. It gets its number and issue date.</li>
</ol>
<h2>Made for licensed workers</h2>
<ul>
<li>Your EWRB licence number is stored with your profile</li>
<li>Drafts and issued certificates are kept apart, so nothing half-finished goes to a customer</li>
<li>Find any past certificate by number or site</li>
</ul>
<h2>Free and Pro</h2>
<p>Start on the free tier. WireWrite Pro is billed monthly and prices include GST. Open the app at <a href="https://app.wirewrite.co.nz">app.wirewrite.co.nz</a>.</p>',
    'certificate of compliance, CoC, electrical certificate, EWRB, electrician app, electrical worker, New Zealand, WireWrite',
    'subscription',
    '/products/wirewrite/wirewrite-icon.svg',
    NULL,
    NULL,
    FALSE,
    TRUE,
    '["Create certificates of compliance on site","Save drafts, issue when the work is done","EWRB licence number stored with your profile","Find past certificates by number or site","Free tier, upgrade to Pro any time"]',
    'external_link',
    'https://app.wirewrite.co.nz',
    TRUE,
    600,
    'month',
    '2025-10-01T09:01:00.000Z',
    '2025-10-01T09:01:00.000Z'
);

INSERT INTO pricing_plans (
    id, product_id, name, price_amount, currency, billing_frequency_value, billing_frequency_unit,
    sort_order, created_at, updated_at
) VALUES (
    '0e16d193-902d-4547-a8ab-ef1d1c040ab8',
    '5c5390c0-42e5-4277-bd77-075f3d844040',
    'Pro Monthly', 600, 'NZD', 1, 'month', 0,
    '2025-10-01T09:01:00.000Z', '2025-10-01T09:01:00.000Z'
);

INSERT INTO products (
    id, slug, name, description, description_detail, meta_keywords, type, icon_url, picture_url,
    stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing,
    price_nzd, billing_interval, created_at, updated_at
) VALUES (
    '8c534010-e22a-4b5e-b9ca-0906d170b1c6',
    'usb-rs232-cable',
    'USB to RS-232 Serial Cable',
    '<p>An FTDI-chipset USB to RS-232 cable with a <strong>DB9 male</strong> connector and 1.8 m of lead. The dependable way to plug HHTraff Terminal, or a laptop, into a controller''s serial port.</p>',
    '<h2>The cable that just works</h2>
<p>Cheap USB serial cables are the most common reason a site visit goes wrong. This one uses an <strong>FTDI</strong> USB to serial chipset, the chipset that field engineers trust and that operating systems and serial apps recognise without fuss.</p>
<h2>Specifications</h2>
<ul>
<li>Interface: USB 2.0 to RS-232</li>
<li>Chipset: FTDI</li>
<li>Connector: DB9 male with thumbscrews</li>
<li>Length: 1.8 m</li>
</ul>
<h2>Works with</h2>
<ul>
<li>HHTraff Terminal on Android, through a USB OTG adapter where the phone needs one</li>
<li>Windows, macOS and Linux laptops</li>
</ul>
<p>Price includes GST. Ships from New Zealand.</p>',
    'USB to RS-232, USB serial cable, FTDI cable, DB9 male, serial adapter, RS232 cable, traffic controller cable',
    'physical',
    '/products/usb-cable/usb-rs232-cable.svg',
    NULL,
    42,
    TRUE,
    TRUE,
    '["FTDI USB to serial chipset","DB9 male connector with thumbscrews","1.8 m cable","Recognised by Windows, macOS and Linux","Works with HHTraff Terminal on Android"]',
    'checkout',
    NULL,
    TRUE,
    4900,
    NULL,
    '2025-10-01T09:02:00.000Z',
    '2025-10-01T09:02:00.000Z'
);

INSERT INTO products (
    id, slug, name, description, description_detail, meta_keywords, type, icon_url, picture_url,
    stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing,
    price_nzd, billing_interval, created_at, updated_at
) VALUES (
    '13999a44-c784-4c76-b053-5b9e96131ac0',
    'bluetooth-serial-adapter',
    'Bluetooth Serial Adapter',
    '<p>A <strong>Class 1</strong> Bluetooth to RS-232 adapter with a DB9 connector and up to 30 m range. Plug it into the controller and work from the footpath, not the cabinet door.</p>',
    '<h2>Cut the cable</h2>
<p>Plug the adapter into the serial port of a traffic signal controller or any other RS-232 equipment, then connect to it from HHTraff Terminal over Bluetooth. You can watch the intersection while you work, and nobody trips over a cable.</p>
<h2>Specifications</h2>
<ul>
<li>Bluetooth Class 1, up to 30 m range in open air</li>
<li>Serial Port Profile (SPP)</li>
<li>DB9 RS-232 connector</li>
<li>Baud rate set to match your equipment</li>
</ul>
<h2>Works with</h2>
<ul>
<li>HHTraff Terminal on Android</li>
<li>Laptops with Bluetooth that support the Serial Port Profile</li>
</ul>
<p>Range depends on the site: metal cabinets and walls shorten it. Price includes GST.</p>',
    'Bluetooth serial adapter, Bluetooth RS-232, wireless serial, DB9 Bluetooth, Class 1 Bluetooth, SPP adapter, traffic controller',
    'physical',
    '/products/bluetooth/bluetooth-icon.svg',
    '/products/bluetooth/bluetooth-adapter.svg',
    4,
    TRUE,
    TRUE,
    '["Class 1 Bluetooth, up to 30 m range","DB9 RS-232 connector","Serial Port Profile (SPP)","Pairs with HHTraff Terminal on Android","Stand clear of the cabinet while you work"]',
    'checkout',
    NULL,
    TRUE,
    12900,
    NULL,
    '2025-10-01T09:03:00.000Z',
    '2025-10-01T09:03:00.000Z'
);

INSERT INTO products (
    id, slug, name, description, description_detail, meta_keywords, type, icon_url, picture_url,
    stock_quantity, track_inventory, is_active, features, action_type, action_url, show_pricing,
    price_nzd, billing_interval, created_at, updated_at
) VALUES (
    '1f2059be-144c-4437-ba83-47f8adab57b7',
    'hit-rs485-interface',
    'HIT RS-422/485 Interface',
    '<p>An <strong>isolated</strong> RS-422 and RS-485 interface with a screw terminal block, for the differential serial buses used by traffic equipment, PLCs and industrial controllers.</p>',
    '<h2>Talk to RS-422 and RS-485 equipment safely</h2>
<p>Traffic signal equipment, ramp meters, PLCs and building controllers often use RS-422 or RS-485 instead of RS-232. The HIT interface connects HHTraff Terminal to those buses, with isolation between your handheld and the field wiring.</p>
<h2>Specifications</h2>
<ul>
<li>RS-422 (4-wire, full duplex) and RS-485 (2-wire, half duplex)</li>
<li>Galvanic isolation between the handheld side and the bus</li>
<li>Screw terminal block for field wiring</li>
<li>Differential signalling for long cable runs</li>
</ul>
<h2>Why isolation matters</h2>
<p>Field equipment and your handheld rarely share the same ground. Isolation stops ground loops from corrupting data and protects both ends from faults on long cable runs.</p>
<p>Price includes GST.</p>',
    'RS-485 interface, RS-422 interface, isolated RS-485, serial bus, terminal block, traffic equipment, PLC, HIT interface',
    'physical',
    '/products/hit/hit-interface.svg',
    NULL,
    0,
    TRUE,
    TRUE,
    '["RS-422 (4-wire) and RS-485 (2-wire) modes","Galvanic isolation protects your handheld","Screw terminal block for field wiring","Differential signalling for long cable runs","Works with HHTraff Terminal"]',
    'checkout',
    NULL,
    TRUE,
    18900,
    NULL,
    '2025-10-01T09:04:00.000Z',
    '2025-10-01T09:04:00.000Z'
);
