// /admin/products (spec section 2 "Admin: Product Management"): the product table with its
// per-row actions, the three product forms, the pricing-plans dialog, delete with the spec's
// question, and a product in use offered for deactivation instead. Messages hide after 3 s.
import { useCallback, useState } from 'react';
import { Banner, type BannerMessage } from '@/components/Banner';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { DataTable, type Column } from '@/components/DataTable';
import { SearchField } from '@/components/list/SearchField';
import { useListState } from '@/components/list/useListState';
import { StaffPage, useLogLoadFailure } from '@/components/StaffPage';
import { errorMessage } from '@/lib/api';
import type { ListSpec } from '@/lib/list';
import { isProductInUse, useDeleteProduct } from '../api/deleteProduct';
import { useAdminProducts } from '../api/getProducts';
import type { ProductFormMode } from '../api/productForm';
import type { AdminProduct } from '../api/schemas';
import { useUpdateProduct } from '../api/updateProduct';
import { ImagePreview } from '../components/ImagePreview';
import { PlansDialog } from '../components/PlansDialog';
import { PRODUCT_UPDATED, ProductFormDialog } from '../components/ProductFormDialog';

export const PRODUCTS_EMPTY = 'No products found. Click "Add Product" to create one.';
export const PRODUCT_DELETED = 'Product deleted successfully!';
export const PRODUCT_DELETE_FAILED = 'Failed to delete product';

export function deleteQuestion(name: string): string {
  return `Are you sure you want to delete "${name}"?`;
}

const LIST: ListSpec<'q'> = { filters: ['q'] };

type FormState = { mode: ProductFormMode; productId: string | null } | null;

export function ProductManagementPage() {
  const list = useListState(LIST);
  const products = useAdminProducts(list.params);
  useLogLoadFailure('products', products.error);
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const [form, setForm] = useState<FormState>(null);
  const [plansFor, setPlansFor] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AdminProduct | null>(null);
  const [inUse, setInUse] = useState<{ product: AdminProduct; message: string } | null>(null);
  const remove = useDeleteProduct();
  const update = useUpdateProduct();
  const dismiss = useCallback(() => setMessage(null), []);

  const rows = products.data?.items;
  const find = (id: string | null) => (id ? rows?.find((product) => product.id === id) ?? null : null);
  const formProduct = form ? find(form.productId) : null;
  const plansProduct = find(plansFor);

  const toggleActive = (product: AdminProduct) => {
    update.mutate(
      { id: product.id, body: { is_active: !product.is_active } },
      {
        onSuccess: () => setMessage({ tone: 'success', text: PRODUCT_UPDATED }),
        onError: (error) => setMessage({ tone: 'error', text: errorMessage(error, 'Failed to save product.') }),
      },
    );
  };

  const confirmDelete = () => {
    const product = deleting;
    if (!product) return;
    remove.mutate(product.id, {
      onSuccess: () => {
        setDeleting(null);
        setMessage({ tone: 'success', text: PRODUCT_DELETED });
      },
      onError: (error) => {
        setDeleting(null);
        if (isProductInUse(error)) setInUse({ product, message: error.message });
        else setMessage({ tone: 'error', text: PRODUCT_DELETE_FAILED });
      },
    });
  };

  const deactivate = () => {
    const product = inUse?.product;
    if (!product) return;
    update.mutate(
      { id: product.id, body: { is_active: false } },
      {
        onSuccess: () => {
          setInUse(null);
          setMessage({ tone: 'success', text: PRODUCT_UPDATED });
        },
        onError: (error) => {
          setInUse(null);
          setMessage({ tone: 'error', text: errorMessage(error, 'Failed to save product.') });
        },
      },
    );
  };

  const columns: Column<AdminProduct>[] = [
    {
      key: 'product',
      header: 'Product',
      cell: (product) => (
        <div className="flex items-center gap-3">
          <ImagePreview src={product.icon_url ?? ''} alt="" className="h-10 w-10" />
          <div>
            <p id={`product-name-${product.id}`} className="font-medium text-slate-900">
              {product.name}
            </p>
            <p className="text-xs text-slate-500">{product.slug}</p>
          </div>
        </div>
      ),
    },
    { key: 'type', header: 'Type', cell: (product) => (product.type === 'physical' ? 'Physical' : 'Subscription') },
    {
      key: 'status',
      header: 'Status',
      cell: (product) => (
        <button
          type="button"
          aria-pressed={product.is_active}
          aria-label={`${product.is_active ? 'Active' : 'Inactive'}: ${product.is_active ? 'deactivate' : 'activate'} ${product.name}`}
          className={`rounded-full px-3 py-1 text-xs font-semibold ${product.is_active ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-700'}`}
          onClick={() => toggleActive(product)}
          disabled={update.isPending}
        >
          {product.is_active ? 'Active' : 'Inactive'}
        </button>
      ),
    },
    {
      key: 'stock',
      header: 'Stock',
      cell: (product) => (product.type === 'physical' && product.track_inventory && product.stock_quantity !== null ? String(product.stock_quantity) : '—'),
    },
    { key: 'plans', header: 'Plans', cell: (product) => String(product.plans.length) },
    {
      key: 'actions',
      header: 'Actions',
      cell: (product) => (
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-secondary px-2 py-1 text-xs" aria-describedby={`product-name-${product.id}`} onClick={() => setForm({ mode: 'full', productId: product.id })}>
            Edit Product
          </button>
          <button type="button" className="btn-secondary px-2 py-1 text-xs" aria-describedby={`product-name-${product.id}`} onClick={() => setForm({ mode: 'home', productId: product.id })}>
            Edit Home Page Appearance
          </button>
          <button type="button" className="btn-secondary px-2 py-1 text-xs" aria-describedby={`product-name-${product.id}`} onClick={() => setForm({ mode: 'detail', productId: product.id })}>
            Edit Detail Page Content
          </button>
          {product.type === 'subscription' ? (
            <button type="button" className="btn-secondary px-2 py-1 text-xs" aria-describedby={`product-name-${product.id}`} onClick={() => setPlansFor(product.id)}>
              Manage Pricing
            </button>
          ) : null}
          <button type="button" className="btn-secondary px-2 py-1 text-xs text-red-700" aria-describedby={`product-name-${product.id}`} onClick={() => setDeleting(product)}>
            Delete Product
          </button>
        </div>
      ),
    },
  ];

  return (
    <StaffPage
      title="Product Management"
      error={products.error}
      actions={
        <button type="button" className="btn-primary" onClick={() => setForm({ mode: 'full', productId: null })}>
          Add Product
        </button>
      }
    >
      <Banner message={message} onDismiss={dismiss} />
      <SearchField label="Search products" value={list.filters.q} onSearch={(q) => list.setFilters({ q })} placeholder="Name or slug" />
      <DataTable
        caption="Products"
        columns={columns}
        rows={rows}
        rowKey={(product) => product.id}
        loading={products.isFetching}
        emptyText={PRODUCTS_EMPTY}
        page={list.page}
        total={products.data?.total ?? 0}
        onPageChange={list.setPage}
        rowClassName={(product) => (product.is_active ? '' : 'bg-slate-50 opacity-75')}
      />
      {form && (form.productId === null || formProduct) ? (
        <ProductFormDialog
          key={`${form.mode}-${form.productId ?? 'new'}`}
          mode={form.mode}
          product={formProduct}
          onClose={() => setForm(null)}
          onSaved={(text) => {
            setForm(null);
            setMessage({ tone: 'success', text });
          }}
        />
      ) : null}
      {plansProduct ? <PlansDialog product={plansProduct} onClose={() => setPlansFor(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Product"
        message={deleting ? deleteQuestion(deleting.name) : ''}
        confirmLabel="Delete"
        danger
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
      <ConfirmDialog
        open={inUse !== null}
        title="Product in use"
        message={inUse?.message ?? ''}
        confirmLabel="Deactivate"
        busy={update.isPending}
        onConfirm={deactivate}
        onCancel={() => setInUse(null)}
      />
    </StaffPage>
  );
}
