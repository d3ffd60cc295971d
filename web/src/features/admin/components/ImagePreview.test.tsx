import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ImagePreview } from './ImagePreview';

describe('ImagePreview', () => {
  it("says 'No Image' without a URL and 'Image not found' when the URL does not load", () => {
    const { rerender } = render(<ImagePreview src="" alt="Icon preview" />);
    expect(screen.getByText('No Image')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    rerender(<ImagePreview src="/products/missing.png" alt="Icon preview" />);
    fireEvent.error(screen.getByRole('img', { name: 'Icon preview' }));
    expect(screen.getByText('Image not found')).toBeInTheDocument();
    // A new URL is tried again.
    rerender(<ImagePreview src="/products/hhtraff/hhtraff-icon.svg" alt="Icon preview" />);
    expect(screen.getByRole('img', { name: 'Icon preview' })).toHaveAttribute('src', '/products/hhtraff/hhtraff-icon.svg');
  });
});
