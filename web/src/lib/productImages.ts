// The product pictures shipped in web/public/products/ (served from /products/...). The seed data
// references them and the admin image picker lists them.
export const PRODUCT_IMAGES = [
  '/products/hhtraff/hhtraff-icon.svg',
  '/products/hhtraff/hhtraff-screen.svg',
  '/products/wirewrite/wirewrite-icon.svg',
  '/products/usb-cable/usb-rs232-cable.svg',
  '/products/bluetooth/bluetooth-icon.svg',
  '/products/bluetooth/bluetooth-adapter.svg',
  '/products/hit/hit-interface.svg',
] as const;

export type ProductImage = (typeof PRODUCT_IMAGES)[number];

/** The folders of the image picker: 'all products' plus one per product folder. */
export const PRODUCT_IMAGE_FOLDERS = ['bluetooth', 'hit', 'hhtraff', 'wirewrite', 'usb-cable'] as const;
