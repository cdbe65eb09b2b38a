import CollectionCore
import Foundation

// The drawing stand-ins of the port, as a port to this library keeps them: a label
// and an image view hold what they would draw (the page draws a cell from its
// fields, not from these views). Everything else in PortedApp is written as for
// UIKit, with the `UI` prefix dropped.

final class Label: View {
    var text: String?
    var textColor: Color?
}

final class ImageView: View {
    var image: Image?
    var tintColor: Color?
}

// An app's helper on every view, as UIKit apps write them on UIView.
extension View {
    /// The view and all its subviews, depth first.
    var allViews: [View] { [self] + subviews.flatMap(\.allViews) }
    /// Adds the views as subviews.
    func addSubviews(_ views: View...) { views.forEach(addSubview) }
}
